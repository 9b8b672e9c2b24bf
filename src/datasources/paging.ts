// The spec's list contract ("Common rules") for collections keyed by a time-ordered `_id`: the
// cursor is the previous page's last id, so a page is one query without an anchor lookup.
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
  // The cursor must name an item of this list, as in every other list (http/pagination.ts).
  if (page.cursor && !(await model.exists({ _id: page.cursor, ...filter }))) {
    throw new AppError('invalid_cursor', 'cursor does not name an item of this list');
  }
  const query = page.cursor ? { ...filter, _id: trusted({ $gt: page.cursor }) } : filter;
  const [items, total] = await Promise.all([
    model.find(query, projection).sort({ _id: 1 }).limit(page.limit).lean<D[]>(),
    model.countDocuments(filter),
  ]);
  return { items, pagination: { total, last: items.length ? items[items.length - 1]!._id : null } };
}
