// The wire side of the gateway (spec "Delivery headers"): read the exact raw bytes, verify
// `X-Service-Signature` over them against each of the source's secrets, then parse and identify
// the delivery. Everything refused is an AppError (401/400/413) and nothing refused is stored.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { z } from 'zod';
import { AppError } from '../http/errors.ts';
import { jsonDepthExceeds } from '../http/body.ts';
import { secretsEqual } from '../security/secrets.ts';
import { verifySignature } from '../security/signature.ts';
import type { Source } from './sources.ts';

/** Never stored or shown: the legacy secret header and anything that authenticates a caller. */
const SECRET_HEADERS = new Set(['x-secret-key', 'authorization', 'proxy-authorization', 'cookie', 'x-api-secret-key']);

const EVENT_NAME = /^[A-Za-z0-9._:-]{1,100}$/;
const DeliveryIdSchema = z.string().uuid();

export interface IncomingDelivery {
  deliveryId: string;
  event: string;
  test: boolean;
  payload: Record<string, unknown>;
  headers: Record<string, string>;
}

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

/** `X-Service-Signature` over the raw bytes; `X-Secret-Key` only when the source opts in. */
export function authenticateDelivery(source: Source, headers: IncomingHttpHeaders, rawBody: Buffer): void {
  const signature = header(headers, 'x-service-signature');
  if (signature !== undefined) {
    if (verifySignature(rawBody, signature, source.secrets)) return;
    throw new AppError('invalid_signature', 'X-Service-Signature does not match the body');
  }
  const legacy = header(headers, 'x-secret-key');
  if (source.allowLegacySecretHeader && legacy !== undefined) {
    // Every secret is compared, so the time taken does not reveal which one (if any) matched.
    let ok = false;
    for (const secret of source.secrets) ok = secretsEqual(legacy, secret) || ok;
    if (ok) return;
    throw new AppError('invalid_signature', 'X-Secret-Key does not match');
  }
  throw new AppError('invalid_signature', 'X-Service-Signature is missing');
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

/** Header and body must agree when both carry the id (spec "Events": equal to the header). */
function deliveryIdOf(headers: IncomingHttpHeaders, payload: Record<string, unknown>): string {
  const fromHeader = header(headers, 'x-service-delivery-id');
  const fromBody = payload.deliveryId;
  if (fromHeader === undefined && fromBody === undefined) throw new AppError('validation_failed', 'deliveryId is required (X-Service-Delivery-Id or body deliveryId)');
  if (fromHeader !== undefined && !DeliveryIdSchema.safeParse(fromHeader).success) throw new AppError('validation_failed', 'X-Service-Delivery-Id must be a UUID');
  if (fromBody !== undefined && !DeliveryIdSchema.safeParse(fromBody).success) throw new AppError('validation_failed', 'deliveryId must be a UUID string');
  const id = String(fromHeader ?? fromBody).toLowerCase();
  if (fromHeader !== undefined && fromBody !== undefined && String(fromBody).toLowerCase() !== id) {
    throw new AppError('validation_failed', 'X-Service-Delivery-Id and body deliveryId differ');
  }
  return id;
}

/** The event header, else the body's `event`, else the sync payload's shape (spec "Payload shapes"). */
function eventOf(headers: IncomingHttpHeaders, payload: Record<string, unknown>): string {
  const named = header(headers, 'x-service-event') ?? (typeof payload.event === 'string' ? payload.event : undefined);
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

function storedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Parses a verified body into the delivery the gateway stores. */
export function readDelivery(headers: IncomingHttpHeaders, rawBody: Buffer, maxDepth: number): IncomingDelivery {
  const payload = parseJson(rawBody, maxDepth);
  return {
    deliveryId: deliveryIdOf(headers, payload),
    event: eventOf(headers, payload),
    test: header(headers, 'x-service-test') === 'true',
    payload,
    headers: storedHeaders(headers),
  };
}
