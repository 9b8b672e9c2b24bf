// MongoDB's sort key of a document, so two answers to one sorted query can be compared: documents
// that tie under the sort get the same key whatever form their values take. An array sorts by its
// least element ascending and its greatest descending (an empty array below null), so `[2.5]` and
// `2.5` tie, and tied documents may come back in any order.
import { BSON, Long, ObjectId, type Document } from 'mongodb';

const { EJSON } = BSON;

/** MongoDB's cross-type sort order, as the driver decodes the values the tests store. */
function typeRank(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === 'number' || v instanceof Long) return 2;
  if (typeof v === 'string') return 3;
  if (Array.isArray(v)) return 5;
  if (v instanceof ObjectId) return 7;
  if (typeof v === 'boolean') return 8;
  if (v instanceof Date) return 9;
  if (Object.getPrototypeOf(v) === Object.prototype) return 4;
  throw new Error(`no sort order known for ${EJSON.stringify(v)}`);
}

/** A number exactly (a Long past 2^53 stays exact), for comparing and for the key. */
function numeric(v: number | Long): number | bigint {
  if (v instanceof Long) return BigInt(v.toString());
  return Number.isInteger(v) ? BigInt(v) : v;
}

/** MongoDB's comparison of two values in a sort: type rank first, then the value. */
export function compareValues(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return Math.sign(rank);
  if (a === null || a === undefined) return 0;
  if (typeof a === 'number' || a instanceof Long) {
    const [x, y] = [numeric(a), numeric(b as number | Long)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // strings by their UTF-8 bytes, ObjectIds by theirs
  if (typeof a === 'string') return Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b as string)));
  if (a instanceof ObjectId) return Math.sign(Buffer.compare(a.id, (b as ObjectId).id));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date) return Math.sign(a.getTime() - (b as Date).getTime());
  // arrays element by element, embedded documents field by field (type, name, value)
  const [xs, ys] = Array.isArray(a) ? [a.map((v) => ['', v]), (b as unknown[]).map((v) => ['', v])] : [Object.entries(a), Object.entries(b as object)];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const [[xk, xv], [yk, yv]] = [xs[i]!, ys[i]!];
    const c = Math.sign(typeRank(xv) - typeRank(yv)) || compareValues(xk, yk) || compareValues(xv, yv);
    if (c !== 0) return c;
  }
  return Math.sign(xs.length - ys.length);
}

/** The value a document sorts by at one key in one direction (missing and null are one). */
function sortValue(v: unknown, direction: 1 | -1): unknown {
  if (!Array.isArray(v)) return v ?? null;
  if (v.length === 0) return EMPTY_ARRAY;
  return v.reduce((best, x) => (compareValues(x, best) * direction < 0 ? x : best));
}

const EMPTY_ARRAY = { 'empty array': true };

/** One key's sort value as a string that is the same exactly for values that tie. */
function canonical(v: unknown): string {
  if (v === EMPTY_ARRAY) return '[]';
  if (typeof v === 'number' || v instanceof Long) return `n:${numeric(v)}`;
  return EJSON.stringify(v, { relaxed: false });
}

/** The document's sort key under `sort`, as a string: equal exactly when MongoDB ties the documents. */
export function sortKeyOf(d: Document, sort: Record<string, 1 | -1> | undefined): string {
  return JSON.stringify(Object.entries(sort ?? {}).map(([k, direction]) => canonical(sortValue(d[k], direction))));
}
