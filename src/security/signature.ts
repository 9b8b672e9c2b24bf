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
