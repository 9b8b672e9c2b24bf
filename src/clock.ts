// Time and ids come from here so tests can drive them.
import { randomBytes, randomUUID } from 'node:crypto';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const newId = (): string => randomUUID();

let lastMs = 0;
let sequence = 0;

/** Sorts above every timeOrderedId made before `ms` and below every one made at or after it. */
export function timeOrderedIdBound(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/**
 * A UUIDv7 (RFC 9562): a valid UUID whose text order is its creation order, monotonic within this
 * process (a 12-bit counter orders ids of one millisecond; a clock that steps back is not
 * followed). Used where the id doubles as `_id`: FerretDB v1 answers only `_id` equality without a
 * scan (docs/FERRETDB.md), "oldest first" lists can order by `_id`, and new keys land at the end of
 * every index on them instead of anywhere in it.
 */
export function timeOrderedId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
