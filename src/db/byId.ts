// Lookups of one record by id, checked against the caller's bot, source or team in the process.
// Kept for the one place that refuses a non-string id and compares the owner, and for the read
// through the driver (cheaper than a mongoose Query); test/db/byId.test.ts.
import { createHash } from 'node:crypto';
import type { Model } from 'mongoose';

/** Field values a document must hold to count as found (the caller's bot, data source, …). */
export type Owner = Record<string, string | number | boolean | null>;

function ownedBy(doc: Record<string, unknown> | null, owner: Owner): boolean {
  if (!doc) return false;
  return Object.entries(owner).every(([key, value]) => doc[key] === value);
}

/**
 * The document with this `_id` when it also holds every field of `owner`, else null. A non-string
 * id (an injection attempt that got this far) finds nothing.
 */
export async function findOwned<T>(model: Model<any>, id: unknown, owner: Owner): Promise<T | null> {
  if (typeof id !== 'string') return null;
  // Through the driver: a string `_id` needs no casting, and mongoose's Query cost the API ~0.2 ms
  // of CPU a read (find.ts).
  const doc = (await model.collection.findOne({ _id: id as never })) as Record<string, unknown> | null;
  return ownedBy(doc, owner) ? (doc as T) : null;
}

/** A UUID (version 8, RFC 9562) derived from a name or bytes: the same input always gives the same id. */
export function nameUuid(name: string | Buffer): string {
  const b = createHash('sha256').update(name).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
