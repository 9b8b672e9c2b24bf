// Rows created from a date on, in (createdAt, _id) order, in pages of `batch`: each page starts
// after the last row of the one before, so rows that share a millisecond are neither skipped nor
// read twice. Only the upgrade steps that sweep by creation time use it; it goes with them.
import type { Model, QueryFilter } from 'mongoose';
import { trusted } from './connection.ts';

export async function* createdSince<R extends { _id: unknown; createdAt: Date }>(
  model: Model<unknown>,
  from: Date,
  batch: number,
  projection?: Record<string, 1>,
): AsyncGenerator<R[]> {
  let after: { at: Date; id: unknown } | null = null;
  for (;;) {
    const position: Record<string, unknown> = after
      ? { $or: [{ createdAt: trusted({ $gt: after.at }) }, { createdAt: after.at, _id: trusted({ $gt: after.id }) }] }
      : { createdAt: trusted({ $gte: from }) };
    const rows = await model
      .find(position as QueryFilter<unknown>, projection)
      .sort({ createdAt: 1, _id: 1 })
      .limit(batch)
      .lean<R[]>();
    if (rows.length) yield rows;
    if (rows.length < batch) return;
    const last = rows.at(-1)!;
    after = { at: last.createdAt, id: last._id };
  }
}
