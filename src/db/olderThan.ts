// Rows whose date field lies before a bound, read in chunks along that field's index: each chunk
// starts at the last one's date (`$gte`), skipping the rows of that date already seen, so rows a
// caller keeps are not read again and a run reads what is old, not what is stored. The sort is on
// the field alone, which any index that starts with it serves. Retention's reads
// (test/platform/retention.test.ts).
import type { Model, QueryFilter } from 'mongoose';
import { trusted } from './connection.ts';

export async function* olderThan<R extends { _id: unknown }>(model: Model<unknown>, field: string, before: Date, chunk: number, projection: Record<string, 1>): AsyncGenerator<R[]> {
  let from: Date | null = null;
  /** Rows at `from` handed out already: they come first in the next read, so it reads that many more. */
  let seen = new Set<string>();
  for (;;) {
    const range: Record<string, Date> = from ? { $gte: from, $lt: before } : { $lt: before };
    const rows: Array<R & Record<string, Date>> = await model
      .find({ [field]: trusted(range) } as QueryFilter<unknown>, { ...projection, [field]: 1 })
      .sort({ [field]: 1 })
      .limit(chunk + seen.size)
      .lean<Array<R & Record<string, Date>>>();
    const unseen = rows.filter((r) => !seen.has(String(r._id)));
    if (!unseen.length) return;
    yield unseen;
    if (rows.length < chunk + seen.size) return;
    const last: Date = rows.at(-1)![field]!;
    if (last.getTime() !== from?.getTime()) seen = new Set();
    for (const r of unseen) if (r[field]!.getTime() === last.getTime()) seen.add(String(r._id));
    from = last;
  }
}
