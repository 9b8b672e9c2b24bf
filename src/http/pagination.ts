// The list contract of the spec ("Common rules"): `limit` 1..100 (default 10), `cursor` = previous
// page's `pagination.last`, oldest first, `pagination.total` and `pagination.last`.
// Documents carry a public `id` (UUID); order is by `_id`, which grows with insertion. An admin list
// may also read newest first (`order: 'desc'`), its cursor then paging on to older items.
import type { Model, QueryFilter } from 'mongoose';
import { z } from 'zod';
import { AppError } from './errors.ts';
import { trusted } from '../db/connection.ts';
import { countMatching, plainStrings } from '../db/count.ts';
import { findLean } from '../db/find.ts';

const LIMIT_ERROR = { error: 'limit must be an integer from 1 to 100' };

export const PageQuerySchema = z.object({
  // A number in a JSON body, or decimal digits in a query string: no "0x10", "1e1" or " 16".
  limit: z
    .union([z.number(LIMIT_ERROR), z.string(LIMIT_ERROR).regex(/^[0-9]{1,3}$/, LIMIT_ERROR).transform(Number)], LIMIT_ERROR)
    .pipe(z.number().int(LIMIT_ERROR).min(1, LIMIT_ERROR).max(100, LIMIT_ERROR))
    .default(10),
  cursor: z.string({ error: 'cursor must be a string' }).max(200).nullish(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** `asc`: oldest first, the spec's order for every list. `desc`: newest first (admin lists that offer it). */
export type PageOrder = 'asc' | 'desc';
export const PageOrderSchema = z
  .enum(['asc', 'desc'], { error: 'order must be asc or desc' })
  .default('asc')
  .describe('asc: oldest first (the default, as every list); desc: newest first. A cursor pages on in the same order.');

export interface Page<T> {
  items: T[];
  /** `totalCapped` only on lists counted up to a limit: `total` is then that limit, and more exist. */
  pagination: { total: number; last: string | null; totalCapped?: boolean };
}

export interface PageOptions {
  projection?: Record<string, 0 | 1>;
  /**
   * Count at most this many: an exact total costs the whole matching range of the index on every
   * page (12 ms of FerretDB CPU at 100,000 entries), a capped one at most the cap.
   */
  totalLimit?: number;
}

export async function paginate<D extends { id: string }>(
  model: Model<D>,
  filter: QueryFilter<D>,
  page: PageQuery,
  { projection, totalLimit }: PageOptions = {},
): Promise<Page<D>> {
  // A batch larger than the limit, as in pageById: a cursor page's 101 of the default batch of 101
  // left the cursor open, and the driver closed it with a killCursors round trip after the page.
  // Through the driver (db/find.ts): filters of stored values (strings from validated input).
  const read = (query: QueryFilter<D>, limit: number) => findLean<D>(model, query as Record<string, unknown>, { projection, sort: { _id: 1 }, limit });
  const count = countOf(model, filter, totalLimit);
  if (!page.cursor) {
    const [items, total] = await Promise.all([read(filter, page.limit), count]);
    return { items, pagination: paginationOf(total, items.length ? items[items.length - 1]!.id : null, totalLimit) };
  }
  // `_id` is the public id: the page is read from the cursor on, one item more, beside the count,
  // with no lookup of the cursor's item before it.
  const [found, total] = await Promise.all([read({ ...filter, _id: trusted({ $gte: page.cursor }) } as QueryFilter<D>, page.limit + 1), count]);
  if ((found[0] as { _id?: unknown } | undefined)?._id !== page.cursor) throw new AppError('invalid_cursor', 'cursor does not name an item of this list');
  const items = found.slice(1);
  return { items, pagination: paginationOf(total, items.length ? items[items.length - 1]!.id : null, totalLimit) };
}

// One over the limit tells "exactly the limit" from "more than it".
const countOf = (model: Model<any>, filter: Record<string, unknown>, totalLimit?: number) => countMatching(model, filter, totalLimit ? totalLimit + 1 : undefined);

function paginationOf(total: number, last: string | null, totalLimit?: number): Page<unknown>['pagination'] {
  if (!totalLimit) return { total, last };
  return { total: Math.min(total, totalLimit), last, totalCapped: total > totalLimit };
}

/**
 * The same contract for collections whose `_id` is the public id and time-ordered (rows, data
 * sources, conversations, webhook deliveries): the cursor is the previous page's last `_id`, so a page is one query
 * (and the count) without an anchor lookup.
 */
export async function pageById<D extends { _id: string }>(
  model: Model<any>,
  filter: Record<string, unknown>,
  page: PageQuery,
  { projection, totalLimit, order = 'asc' }: { projection?: Record<string, 0 | 1>; totalLimit?: number; order?: PageOrder } = {},
): Promise<Page<D>> {
  // From the cursor itself on, one item more: the cursor must name an item of this list, as in
  // paginate, and that item comes first if it does. No lookup of it apart.
  // The first page from the lowest string: a bound of one type lets FerretDB's pushdown take the
  // `_id` order from the index without first probing the range for values it would order
  // otherwise (docs/FERRETDB.md, "Sorts"). These `_id`s are all strings, so it holds the same.
  // Newest first, the same index is read backwards: an `(f, _id)` index serves `_id` descending.
  const descending = order === 'desc';
  const bound = page.cursor ? { [descending ? '$lte' : '$gte']: page.cursor } : { $gte: '' };
  const query = { ...filter, _id: trusted(bound) };
  const sort = { _id: descending ? -1 : 1 } as const;
  const take = page.limit + (page.cursor ? 1 : 0);
  const [found, total] = await Promise.all([
    // A batch larger than the limit: FerretDB closes a cursor only after a batch smaller than its
    // batch size, so 101 of a default batch of 101 would cost a killCursors round trip.
    // The cursor's bound beside the filter is a string too (PageQuerySchema).
    plainStrings(filter)
      ? // Through the driver (db/find.ts): nothing for mongoose to cast in plain strings, and its
        // query and lean result cost ~0.45 ms of the API's CPU on a page of 100 conversations
        // (measured on the conversations page at full size).
        findLean<D>(model, query, { projection, sort, limit: take })
      : model.find(query, projection).sort(sort).limit(take).batchSize(take + 1).lean<D[]>(),
    countOf(model, filter, totalLimit),
  ]);
  if (page.cursor && found[0]?._id !== page.cursor) throw new AppError('invalid_cursor', 'cursor does not name an item of this list');
  const items = page.cursor ? found.slice(1) : found;
  return { items, pagination: paginationOf(total, items.length ? items[items.length - 1]!._id : null, totalLimit) };
}
