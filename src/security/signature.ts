// Body signatures: `sha256=<hex HMAC-SHA256 of the exact raw bytes>` (spec "Delivery headers").
// Used to sign outgoing deliveries and to verify incoming ones; never re-serialise the body.
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';
const HEX_LENGTH = 64;
const HEADER_LENGTH = PREFIX.length + HEX_LENGTH;
const LOWER_HEX = /^[0-9a-f]{64}$/;

function hmac(body: Buffer | string, secret: string): Buffer {
  return createHmac('sha256', secret).update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body).digest();
}

/** `sha256=` + lowercase hex HMAC-SHA256 of the exact bytes (a string is taken as UTF-8). */
export function signBody(body: Buffer | string, secret: string): string {
  return PREFIX + hmac(body, secret).toString('hex');
}

/**
 * True when the header is one valid signature of `rawBody` under any of `secrets` (several
 * secrets let a sender rotate keys). The comparison is constant time over the 32 digest
 * bytes, and every secret is tried so the timing does not reveal which one matched. Header
 * shape problems (missing, empty, huge, non-hex, wrong length, wrong prefix, repeated
 * header delivered as an array) return false before any HMAC work; this never throws.
 * Hex is accepted in either case (some senders uppercase it).
 */
export function verifySignature(rawBody: Buffer, header: string | string[] | undefined, secrets: string[]): boolean {
  if (typeof header !== 'string' || header.length !== HEADER_LENGTH) return false;
  if (!header.startsWith(PREFIX)) return false;
  const hex = header.slice(PREFIX.length).toLowerCase();
  if (!LOWER_HEX.test(hex)) return false;
  if (!Buffer.isBuffer(rawBody) || !Array.isArray(secrets)) return false;
  const given = Buffer.from(hex, 'hex');
  let matched = false;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    if (timingSafeEqual(hmac(rawBody, secret), given)) matched = true;
  }
  return matched;
}

/** The delivery facts that travel in headers; X-Relay-Signature signs them with the body. */
export interface DeliveryFacts {
  deliveryId: string;
  event: string;
  test: boolean;
}

const FACTS_HEADER = /^t=(\d{1,12}),v1=([0-9a-fA-F]{64})$/;

function factsHmac(facts: DeliveryFacts, timestamp: number, body: Buffer | string, secret: string): Buffer {
  const prefix = `${timestamp}.${facts.deliveryId}.${facts.event}.${facts.test ? 'true' : 'false'}.`;
  return createHmac('sha256', secret).update(prefix, 'utf8').update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body).digest();
}

/**
 * `X-Relay-Signature: t=<unix seconds>,v1=<hex>`, an HMAC-SHA256 over the time, the delivery id,
 * the event, the test flag and the body. The spec's X-Service-Signature covers the body only, so
 * its delivery-id, event and test headers could be changed in transit (issue 21, F4); this one
 * covers them, and its time bounds a replay once the receiver has forgotten the delivery id.
 */
export function signDeliveryFacts(facts: DeliveryFacts, body: Buffer | string, secret: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${factsHmac(facts, timestamp, body, secret).toString('hex')}`;
}

export type FactsVerdict = 'valid' | 'invalid' | 'expired';

/** Checks X-Relay-Signature against every secret (constant time each) and its time against `toleranceSeconds`. */
export function verifyDeliveryFacts(
  header: string,
  facts: DeliveryFacts,
  body: Buffer,
  secrets: string[],
  now: Date,
  toleranceSeconds: number,
): FactsVerdict {
  const match = FACTS_HEADER.exec(header);
  if (!match) return 'invalid';
  const timestamp = Number(match[1]);
  const given = Buffer.from(match[2]!.toLowerCase(), 'hex');
  let matched = false;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    if (timingSafeEqual(factsHmac(facts, timestamp, body, secret), given)) matched = true;
  }
  if (!matched) return 'invalid';
  return Math.abs(now.getTime() / 1000 - timestamp) <= toleranceSeconds ? 'valid' : 'expired';
}

/** The HMAC key of a `whsec_…` secret (the prefix is optional, as in the reference library). */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

/**
 * The Standard Webhooks headers (standardwebhooks.com): `webhook-signature: v1,<base64>` of the
 * HMAC-SHA256 of `<id>.<unix seconds>.<body>`, keyed with the base64 part of the `whsec_` secret
 * (Node also reads url-safe base64, the form of secrets made before issue 19).
 */
export function signStandardWebhook(id: string, body: Buffer | string, secret: string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const mac = createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestamp}.`, 'utf8').update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}` };
}
