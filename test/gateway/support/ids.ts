// Delivery ids as instances make them (UUIDv7, src/clock.ts), for any millisecond: timeOrderedId
// never goes back in time and orders one process's ids of a millisecond by a counter, while
// these have random bits after the time, as another instance's of the same millisecond would.
import { randomBytes } from 'node:crypto';

export function idAt(ms: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A stored delivery row (the 1.0.0 layout), processed with no rule matched, received at `at`. */
export function processedRow(id: string, fields: { source: string; event: string; deliveryId: string; at: Date }) {
  const { source, event, deliveryId, at } = fields;
  return { _id: id, id, source, deliveryId, event, test: false, signed: { deliveryId: true, event: true, test: false }, receivedAt: at, run: 0, processedRun: 0, processedAt: at, sweptAt: at };
}
