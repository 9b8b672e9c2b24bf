// The wire side of the gateway: read the exact raw bytes, verify them under the source's scheme
// (schemes/: relay, standard-webhooks, github, stripe, hmac), then parse the body and let the
// scheme identify the delivery. Everything refused is an AppError (401/400/413) and nothing
// refused is stored. Which facts rest on a signature is kept as `signed` (docs/RULES.md).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { AppError } from '../http/errors.ts';
import { refuseUnsafeJson } from '../http/body.ts';
import { isStorableKey } from '../http/validate.ts';
import type { Source } from './sources.ts';
import { schemes } from './schemes/index.ts';
import { requireTimedOnceSeen } from './schemes/relay.ts';
import type { Authentication, SignedFacts } from './schemes/types.ts';

export type { Authentication, SignedFacts } from './schemes/types.ts';
export { digestId, inferEventName } from './schemes/common.ts';

/** Never stored or shown: the legacy secret header and anything that authenticates a caller. */
const SECRET_HEADERS = new Set(['x-secret-key', 'authorization', 'proxy-authorization', 'cookie', 'x-api-secret-key']);

export interface IncomingDelivery {
  deliveryId: string;
  event: string;
  test: boolean;
  signed: SignedFacts;
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

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** GitHub's webhook form offers form encoding, and it is GitHub's default; every other scheme sends JSON. */
export function acceptedContentTypes(source: Source): string[] {
  return source.scheme === 'github' ? [JSON_TYPE, FORM_TYPE] : [JSON_TYPE];
}

/** 415 naming what the source takes, for a Content-Type (lower case, no parameters) it does not. */
export function checkContentType(source: Source, type: string): void {
  const accepted = acceptedContentTypes(source);
  if (!accepted.includes(type)) throw new AppError('unsupported_media_type', `Content-Type must be ${accepted.join(' or ')}${type ? `, not ${type}` : ''}`);
}

/**
 * The JSON bytes of an authenticated body. A form-encoded GitHub delivery carries the event as its
 * `payload` field; the signature covered the form bytes, and the JSON is what is stored and run.
 */
export function jsonBodyOf(type: string, rawBody: Buffer): Buffer {
  if (type !== FORM_TYPE) return rawBody;
  const payload = new URLSearchParams(rawBody.toString('utf8')).get('payload');
  if (payload === null) throw new AppError('invalid_json', 'The form body has no payload field (GitHub sends the event JSON as payload=…)');
  return Buffer.from(payload, 'utf8');
}

/** Verifies the raw bytes under the source's scheme; throws 401 invalid_signature or signature_expired. */
export function authenticateDelivery(source: Source, headers: IncomingHttpHeaders, rawBody: Buffer, now: Date): Authentication {
  return schemes[source.scheme].authenticate({ source, headers, rawBody, now });
}

/**
 * The checks that need the gateway's records, run at intake only (a dry run reads no database):
 * a `relay` source that has sent X-Relay-Signature must keep sending it (schemes/relay.ts).
 */
export async function admitDelivery(source: Source, auth: Authentication, now: Date): Promise<void> {
  if (source.scheme === 'relay') await requireTimedOnceSeen({ source, now }, auth.factsSigned);
}

function parseJson(rawBody: Buffer, maxDepth: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new AppError('invalid_json', 'Request body must be a JSON object');
  refuseUnsafeJson(value, maxDepth);
  return value as Record<string, unknown>;
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

/** Parses an authenticated body into the delivery the gateway stores; the scheme says which delivery it is. */
export async function readDelivery(
  source: Source,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
  maxDepth: number,
  auth: Authentication,
  now: Date,
): Promise<IncomingDelivery> {
  const payload = parseJson(rawBody, maxDepth);
  const identity = await schemes[source.scheme].identify({ source, headers, rawBody, now }, payload, auth);
  return { ...identity, payload, headers: storedHeaders(headers) };
}
