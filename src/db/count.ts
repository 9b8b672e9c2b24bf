// A list's total through the `count` command instead of countDocuments' aggregation: no pipeline
// for mongoose and the driver to build and unwrap, nor for FerretDB to recognise (~0.3 ms of the
// API's CPU and ~0.15 of FerretDB's a page of a source's rows). Both are counted in SQL by the
// patch (ferretdb-patch/counts/), from the maintained counts alike. test/db/count.test.ts.
import type { Model } from 'mongoose';

/** A filter of plain string equalities: nothing in it for mongoose to cast, nor an operator to sanitize. */
export const plainStrings = (filter: Record<string, unknown>): boolean =>
  Object.keys(filter).every((k) => !k.startsWith('$') && typeof filter[k] === 'string');

/**
 * Only a filter of plain string equalities takes the command: it needs neither mongoose's casting
 * nor its sanitizeFilter (a string carries no operator). Anything else, and an empty filter, stays
 * countDocuments: on MongoDB a `count` without a predicate answers from collection metadata, which
 * an unclean shutdown can leave wrong.
 */
export async function countMatching(model: Model<any>, filter: Record<string, unknown>, limit?: number): Promise<number> {
  if (!Object.keys(filter).length || !plainStrings(filter)) return limit ? model.countDocuments(filter).limit(limit) : model.countDocuments(filter);
  const res = await model.db.db!.command({ count: model.collection.collectionName, query: filter, ...(limit ? { limit } : {}) });
  return Number(res.n);
}
