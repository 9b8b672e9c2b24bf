// Secrets: generated with a CSPRNG, stored as sha256 where they need not be shown again,
// and always compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function generateSecret(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * An outgoing hook's secret: `whsec_` + standard base64 of 256 random bits, the form Standard
 * Webhooks libraries decode (they refuse url-safe base64).
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** The stored form of a secret that is shown once: hex sha256. */
export function hashSecret(secret: string): string {
  return digest(secret).toString('hex');
}

/** Hashing the input first makes the comparison length-independent as well as constant-time. */
export function secretMatchesHash(provided: string | undefined, storedHex: string | undefined | null): boolean {
  if (typeof provided !== 'string' || typeof storedHex !== 'string' || storedHex.length !== 64) return false;
  return timingSafeEqual(digest(provided), Buffer.from(storedHex, 'hex'));
}

export function secretsEqual(a: string | undefined, b: string | undefined): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return timingSafeEqual(digest(a), digest(b));
}
