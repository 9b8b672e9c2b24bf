// Pieces every scheme shares: reading one header, HMACs compared in constant time against each of
// a source's secrets (rotation), the tolerance check, and the shapes of ids and event names.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../http/errors.ts';
import { nameUuid } from '../../db/byId.ts';

export const EVENT_NAME = /^[A-Za-z0-9._:-]{1,100}$/;
/** Provider ids (evt_…, msg_…, UUIDs): visible ASCII, bounded. */
const PROVIDER_ID = /^[\x21-\x7e]{1,200}$/;

export const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

export function hmac(algorithm: HmacAlgorithm, key: string | Buffer, ...parts: Array<string | Buffer>): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/**
 * True when any given signature equals the digest under any key. Every key is tried against every
 * candidate, so the time taken does not tell which one (if any) matched; lengths are public.
 */
export function anyMatch(given: Buffer[], keys: Array<string | Buffer>, digest: (key: string | Buffer) => Buffer): boolean {
  let matched = false;
  for (const key of keys) {
    if (key.length === 0) continue;
    const expected = digest(key);
    for (const g of given) if (g.length === expected.length && timingSafeEqual(g, expected)) matched = true;
  }
  return matched;
}

export function refuse(message: string): never {
  throw new AppError('invalid_signature', message);
}

/** A signed time (unix seconds) more than `toleranceSeconds` from ours, either way, is refused. */
export function checkTolerance(timestamp: number, now: Date, toleranceSeconds: number, what: string): void {
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) {
    throw new AppError('signature_expired', `${what} is more than ${toleranceSeconds} s from the current time`);
  }
}

/** Unix seconds as the providers write them: digits only, no sign, no fraction. */
export function parseTimestamp(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : null;
}

/** An absent header is named as missing, so the sender's fix is plain. */
export function providerId(value: unknown, what: string): string {
  if (value === undefined || value === '') throw new AppError('validation_failed', `${what} is missing`);
  if (typeof value !== 'string' || !PROVIDER_ID.test(value)) throw new AppError('validation_failed', `${what} must be 1-200 visible ASCII characters`);
  return value;
}

export function eventName(value: string, what = 'event name'): string {
  if (value === '') throw new AppError('validation_failed', `${what} is missing`);
  if (!EVENT_NAME.test(value)) throw new AppError('validation_failed', `${what} must be 1-100 letters, digits, . _ : -`);
  return value;
}

/** A UUID from the SHA-256 of the body (nameUuid): the same bytes, the same id. */
export function digestId(rawBody: Buffer): string {
  return nameUuid(rawBody);
}

/** Sync payloads carry no event name (spec "Payload shapes"); their shape tells them apart. */
export function inferEventName(payload: Record<string, unknown>): string {
  if (typeof payload.event === 'string') return payload.event;
  if (payload.success === true && payload.results !== undefined) return 'sync.success';
  if (payload.success === false && typeof payload.reason === 'string') return 'sync.failure';
  return 'unknown';
}

/** The event a body names for itself: `type` (Stripe, Standard Webhooks), `event`, or the sync shape. */
export function bodyEvent(payload: Record<string, unknown>): string {
  if (typeof payload.type === 'string') return eventName(payload.type, 'body type');
  return eventName(inferEventName(payload));
}
