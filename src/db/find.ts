// The lists' reads of plain documents through the driver instead of a mongoose Query: building,
// casting and executing the Query cost the API 0.13-0.37 ms of CPU a read over the same driver
// call, on any database, and a list page makes two to four. What a lean Query returns, the same
// documents (test/db/find.test.ts).
import mongoose, { type Model } from 'mongoose';

export interface FindOptions {
  projection?: Record<string, 0 | 1>;
  sort?: Record<string, 1 | -1>;
  /** Read in one batch: FerretDB closes a cursor only after a batch smaller than its batch size. */
  limit?: number;
}

/**
 * Not cast: the filter's values must be what is stored (strings, numbers; operators wrapped with
 * `trusted`). Sanitized as mongoose does (`sanitizeFilter` is on), so an object from a request
 * is compared as a value, never run as an operator.
 */
export function findLean<T>(model: Model<any>, filter: Record<string, unknown>, { projection, sort, limit }: FindOptions = {}): Promise<T[]> {
  const query = mongoose.sanitizeFilter({ ...filter });
  if (!limit) return model.collection.find(query, { projection, sort }).toArray() as Promise<T[]>;
  return findCommand<T>(model, query, projection, sort, limit);
}

/**
 * A page as one find command whose reply is decoded whole. A cursor's toArray decodes each document
 * twice (an index of its fields, kept with the batch, then the document), and under request load
 * those indexes were most of what the API process's young collections copied and promoted
 * (docs/BENCHMARKS.md, "Scale").
 */
async function findCommand<T>(model: Model<any>, filter: Record<string, unknown>, projection: FindOptions['projection'], sort: FindOptions['sort'], limit: number): Promise<T[]> {
  const db = model.db.db!;
  // batchSize above the limit: the reply holds the whole page and the server closes the cursor
  // (test/db/find.test.ts: no getMore or killCursors follows).
  const command = { find: model.collection.collectionName, filter, ...(projection ? { projection } : {}), ...(sort ? { sort } : {}), limit, batchSize: limit + 1 };
  const { cursor } = (await db.command(command)) as { cursor: { firstBatch: T[] } };
  return cursor.firstBatch;
}
