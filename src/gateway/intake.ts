// The wire side of the gateway (spec "Delivery headers"): read the exact raw bytes, verify
// `X-Service-Signature` over them against each of the source's secrets, then parse and identify
// the delivery. Everything refused is an AppError (401/400/413) and nothing refused is stored.
// The spec signs the body only: the delivery id, event and test headers are facts a rule may
// trust only when X-Relay-Signature (Relay's own senders) covers them (issue 21, F4; docs/GATEWAY.md).
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { z } from 'zod';
import { AppError } from '../http/errors.ts';
import { jsonDepthExceeds } from '../http/body.ts';
import { secretsEqual } from '../security/secrets.ts';
import { verifyDeliveryFacts, verifySignature, type DeliveryFacts } from '../security/signature.ts';
import { isStorableKey } from '../http/validate.ts';
import type { Source } from './sources.ts';

/** Never stored or shown: the legacy secret header and anything that authenticates a caller. */
const SECRET_HEADERS = new Set(['x-secret-key', 'authorization', 'proxy-authorization', 'cookie', 'x-api-secret-key']);

const EVENT_NAME = /^[A-Za-z0-9._:-]{1,100}$/;
const DeliveryIdSchema = z.string().uuid();

/** Which facts of a delivery rest on a signature (rules read this as `signed`, docs/RULES.md). */
export interface SignedFacts {
  deliveryId: boolean;
  event: boolean;
  test: boolean;
}

export interface IncomingDelivery {
  deliveryId: string;
  event: string;
  test: boolean;
  signed: SignedFacts;
  payload: Record<string, unknown>;
  headers: Record<string, string>;
}

/** How far X-Relay-Signature's time may be from ours, either way. */
export const FACTS_TOLERANCE_SECONDS = 300;

export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { length: req.headers['content-length'], limit });
  } catch (err) {
    const e = err as { status?: number; type?: string };
    if (e.status === 413 || e.type === 'entity.too.large') throw new AppError('payload_too_large', `Request body is larger than ${limit} bytes`);
    throw new AppError('bad_request', 'Request body could not be read');
  }
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** What authentication established: the body (always) and, with X-Relay-Signature, the header facts. */
export interface Authentication {
  /** The body is covered by a signature (not so with the legacy shared-secret header). */
  bodySigned: boolean;
  factsSigned: boolean;
}

/** `X-Service-Signature` over the raw bytes; `X-Secret-Key` only when the source opts in. */
export function authenticateDelivery(source: Source, headers: IncomingHttpHeaders, rawBody: Buffer, now: Date): Authentication {
  const signature = header(headers, 'x-service-signature');
  if (signature !== undefined) {
    if (!verifySignature(rawBody, signature, source.secrets)) throw new AppError('invalid_signature', 'X-Service-Signature does not match the body');
    return { bodySigned: true, factsSigned: verifyFacts(source, headers, rawBody, now) };
  }
  const legacy = header(headers, 'x-secret-key');
  if (source.allowLegacySecretHeader && legacy !== undefined) {
    // Every secret is compared, so the time taken does not reveal which one (if any) matched.
    let ok = false;
    for (const secret of source.secrets) ok = secretsEqual(legacy, secret) || ok;
    if (ok) return { bodySigned: false, factsSigned: false };
    throw new AppError('invalid_signature', 'X-Secret-Key does not match');
  }
  throw new AppError('invalid_signature', 'X-Service-Signature is missing');
}

/** X-Relay-Signature, when sent, must verify and be recent: a wrong one is refused, not ignored. */
function verifyFacts(source: Source, headers: IncomingHttpHeaders, rawBody: Buffer, now: Date): boolean {
  const signature = header(headers, 'x-relay-signature');
  if (signature === undefined) return false;
  const facts: DeliveryFacts = {
    deliveryId: header(headers, 'x-service-delivery-id') ?? '',
    event: header(headers, 'x-service-event') ?? '',
    test: header(headers, 'x-service-test') === 'true',
  };
  const verdict = verifyDeliveryFacts(signature, facts, rawBody, source.secrets, now, FACTS_TOLERANCE_SECONDS);
  if (verdict === 'invalid') throw new AppError('invalid_signature', 'X-Relay-Signature does not match the delivery');
  if (verdict === 'expired') throw new AppError('signature_expired', `X-Relay-Signature is more than ${FACTS_TOLERANCE_SECONDS} s from the current time`);
  return true;
}

function parseJson(rawBody: Buffer, maxDepth: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'), (key, v) => {
      if (key === '__proto__') throw new Error('prototype key');
      return v;
    });
  } catch {
    throw new AppError('invalid_json', 'Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new AppError('invalid_json', 'Request body must be a JSON object');
  if (jsonDepthExceeds(value, maxDepth)) throw new AppError('json_too_deep', `Request body is nested deeper than ${maxDepth} levels`);
  return value as Record<string, unknown>;
}

/**
 * The id de-duplication keys on, from signed bytes only: the signed header, else the body's
 * `deliveryId` (spec "Events": equal to the header, so both must agree when both are sent), else
 * a digest of the body. An unsigned header id alone would let one captured body in again under a
 * fresh id.
 */
function deliveryIdOf(headers: IncomingHttpHeaders, payload: Record<string, unknown>, rawBody: Buffer, factsSigned: boolean): string {
  const fromHeader = header(headers, 'x-service-delivery-id');
  const fromBody = payload.deliveryId;
  if (fromHeader !== undefined && !DeliveryIdSchema.safeParse(fromHeader).success) throw new AppError('validation_failed', 'X-Service-Delivery-Id must be a UUID');
  if (fromBody !== undefined && !DeliveryIdSchema.safeParse(fromBody).success) throw new AppError('validation_failed', 'deliveryId must be a UUID string');
  if (fromHeader !== undefined && fromBody !== undefined && String(fromBody).toLowerCase() !== fromHeader.toLowerCase()) {
    throw new AppError('validation_failed', 'X-Service-Delivery-Id and body deliveryId differ');
  }
  if (factsSigned && fromHeader !== undefined) return fromHeader.toLowerCase();
  if (fromBody !== undefined) return String(fromBody).toLowerCase();
  return digestId(rawBody);
}

/** A UUID (version 8, RFC 9562) from the SHA-256 of the body: the same bytes, the same id. */
export function digestId(rawBody: Buffer): string {
  const bytes = createHash('sha256').update(rawBody).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The event, from signed bytes only: the signed header, else the body's `event`, else the sync
 * payload's shape (spec "Payload shapes"). An unsigned X-Service-Event does not route; rules can
 * still read it from `headers`.
 */
function eventOf(headers: IncomingHttpHeaders, payload: Record<string, unknown>, factsSigned: boolean): string {
  const fromHeader = header(headers, 'x-service-event');
  const named = (factsSigned ? fromHeader : undefined) ?? (typeof payload.event === 'string' ? payload.event : undefined);
  if (named !== undefined) {
    if (!EVENT_NAME.test(named)) throw new AppError('validation_failed', 'event name must be 1-100 letters, digits, . _ : -');
    return named;
  }
  return inferEventName(payload);
}

/** Sync payloads carry no event name (spec "Payload shapes"); their shape tells them apart. */
export function inferEventName(payload: Record<string, unknown>): string {
  if (typeof payload.event === 'string') return payload.event;
  if (payload.success === true && payload.results !== undefined) return 'sync.success';
  if (payload.success === false && typeof payload.reason === 'string') return 'sync.failure';
  return 'unknown';
}

/** Secrets are never stored; nor are names that cannot be a stored field name (a `$` first, a dot). */
function storedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADERS.has(name) || !isStorableKey(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Parses an authenticated body into the delivery the gateway stores. */
export function readDelivery(headers: IncomingHttpHeaders, rawBody: Buffer, maxDepth: number, auth: Authentication): IncomingDelivery {
  const payload = parseJson(rawBody, maxDepth);
  const fromBody = auth.bodySigned;
  return {
    deliveryId: deliveryIdOf(headers, payload, rawBody, auth.factsSigned),
    event: eventOf(headers, payload, auth.factsSigned),
    test: header(headers, 'x-service-test') === 'true',
    signed: { deliveryId: fromBody, event: fromBody, test: auth.factsSigned },
    payload,
    headers: storedHeaders(headers),
  };
}
