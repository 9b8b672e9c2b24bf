// The lists' reads of plain documents through the driver (mongoose's collection, so its debug hook
// still sees them) instead of a mongoose Query: building, casting and executing the Query cost the
// API 0.13-0.37 ms of CPU a read over the same driver call, on any database, and a list page makes
// two to four. What a lean Query returns, the same documents (test/db/find.test.ts).
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
  return model.collection.find(query, { projection, sort, ...(limit ? { limit, batchSize: limit + 1 } : {}) }).toArray() as Promise<T[]>;
}
