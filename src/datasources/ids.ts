// Row and data source ids are UUIDv7: valid UUIDs (the API validates them as such) that sort by
// creation time. They double as the document `_id`, because FerretDB v1 on SQLite answers only
// `_id` equality without scanning the collection (docs/FERRETDB.md, "Only `_id` lookups are indexed"),
// and "oldest first" pagination can then order by `_id`.
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/** A UUIDv7 that grows strictly within this process (a 12-bit counter fills same-millisecond ids). */
export function newSortableId(now = Date.now()): string {
  if (now <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
