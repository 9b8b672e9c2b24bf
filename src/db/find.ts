// The lists' reads of plain documents through the driver instead of a mongoose Query: building,
// casting and executing the Query cost the API 0.13-0.37 ms of CPU a read over the same driver
// call, on any database, and a list page makes two to four. What a lean Query returns, the same
// documents (test/db/find.test.ts).
import mongoose, { type Model } from 'mongoose';
import { Long } from 'mongodb';

export interface FindOptions {
  projection?: Record<string, 0 | 1>;
  sort?: Record<string, 1 | -1>;
  /** Read in one batch: FerretDB closes a cursor only after a batch smaller than its batch size. */
  limit?: number;
  /** With a limit, the first reply's size: by default the whole page and one more. */
  batchSize?: number;
}

/**
 * Not cast: the filter's values must be what is stored (strings, numbers; operators wrapped with
 * `trusted`). Sanitized as mongoose does (`sanitizeFilter` is on), so an object from a request
 * is compared as a value, never run as an operator.
 */
export function findLean<T>(model: Model<any>, filter: Record<string, unknown>, { projection, sort, limit, batchSize }: FindOptions = {}): Promise<T[]> {
  return findCommand<T>(model, mongoose.sanitizeFilter({ ...filter }), { projection, sort, limit, batchSize: batchSize ?? (limit ? limit + 1 : undefined) });
}

/**
 * A read as find commands whose replies are decoded whole. A cursor's toArray decodes each document
 * twice (an index of its fields, kept with the batch, then the document), and under request load
 * those indexes were most of what the API process's young collections copied and promoted
 * (docs/BENCHMARKS.md, "Scale").
 */
async function findCommand<T>(model: Model<any>, filter: Record<string, unknown>, opts: FindOptions): Promise<T[]> {
  const db = model.db.db!;
  const collection = model.collection.collectionName;
  const { projection, sort, limit, batchSize } = opts;
  // With a limit, batchSize above it: the reply holds the whole page and the server closes the
  // cursor (test/db/find.test.ts: no getMore or killCursors follows), unless the page is more than a
  // reply can carry (16 MB on MongoDB). The rest, and an unlimited read's later batches, come by
  // getMore as a cursor would fetch them, until the server closes the cursor.
  const command = { find: collection, filter, ...(projection ? { projection } : {}), ...(sort ? { sort } : {}), ...(limit ? { limit } : {}), ...(batchSize ? { batchSize } : {}) };
  const first = (await db.command(command)) as { cursor: { id: CursorId; firstBatch: T[] } };
  const docs = first.cursor.firstBatch;
  let id = first.cursor.id;
  try {
    while (isOpen(id)) {
      const rest = limit ? { batchSize: limit + 1 - docs.length } : {};
      const next = (await db.command({ getMore: asLong(id), collection, ...rest })) as { cursor: { id: CursorId; nextBatch: T[] } };
      docs.push(...next.cursor.nextBatch);
      id = next.cursor.id;
    }
  } catch (err) {
    // A read that fails half-way closes its cursor, which the server would otherwise keep until it
    // times out; the read's own error is what the caller gets.
    await db.command({ killCursors: collection, cursors: [asLong(id)] }).catch(() => undefined);
    throw err;
  }
  return docs;
}

/** getMore and killCursors take the id as a 64-bit integer; a reply decodes a small one as a number. */
export const asLong = (id: CursorId) => (typeof id === 'number' ? Long.fromNumber(id) : id);

/** A cursor id as decoded: a number, or a Long when it needs more than 53 bits; 0 once closed. */
export type CursorId = number | Long;
const isOpen = (id: CursorId) => (typeof id === 'number' ? id !== 0 : !id.isZero());
