// Conversation ids are UUIDv7 (RFC 9562): time-ordered, so the id can be the document's `_id`
// and still list oldest first, and a lookup by id is an `_id` read (the only kind FerretDB v1
// answers without scanning; docs/FERRETDB.md).
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/** Monotonic within this process: a 12-bit counter orders ids made in the same millisecond. */
export function timeOrderedId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  const ms = BigInt(lastMs);
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
