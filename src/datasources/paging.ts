// The spec's list contract ("Common rules") for collections keyed by a time-ordered `_id`: the
// cursor is the previous page's last id, so a page is one query (and the count) without an anchor lookup.
import type { Model } from 'mongoose';
import type { PageQuery, Page } from '../http/pagination.ts';
import { trusted } from '../db/connection.ts';
import { AppError } from '../http/errors.ts';

export async function pageById<D extends { _id: string }>(
  model: Model<any>,
  filter: Record<string, unknown>,
  page: PageQuery,
  projection?: Record<string, 0 | 1>,
): Promise<Page<D>> {
  // From the cursor itself on, one item more: the cursor must name an item of this list, as in every
  // other list (http/pagination.ts), and that item comes first if it does. No lookup of it apart.
  const query = page.cursor ? { ...filter, _id: trusted({ $gte: page.cursor }) } : filter;
  const take = page.limit + (page.cursor ? 1 : 0);
  const [found, total] = await Promise.all([
    // A batch larger than the limit: FerretDB closes a cursor only after a batch smaller than its
    // batch size, so 101 of a default batch of 101 would cost a killCursors round trip.
    model.find(query, projection).sort({ _id: 1 }).limit(take).batchSize(take + 1).lean<D[]>(),
    model.countDocuments(filter),
  ]);
  if (page.cursor && found[0]?._id !== page.cursor) throw new AppError('invalid_cursor', 'cursor does not name an item of this list');
  const items = page.cursor ? found.slice(1) : found;
  return { items, pagination: { total, last: items.length ? items[items.length - 1]!._id : null } };
}
