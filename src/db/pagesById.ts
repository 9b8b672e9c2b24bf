// The documents of a collection that match a filter, in `_id` order, in pages: each page is a query
// of its own that starts after the last page's `_id` and ends with its reply, instead of one cursor
// that lives as long as the caller's work. On the embedded FerretDB a query keeps its SQLite read
// snapshot until its cursor ends, and while one is open the WAL cannot restart, so one long read lets
// it grow by everything written meanwhile (docs/FERRETDB.md, "The WAL file"). The next page is
// asked for while the caller works on the current one: on FerretDB its decoding runs in the
// database's own process, on the other core. test/db/pagesById.test.ts,
// test/datasources/fullSyncWal.test.ts (the WAL stays small through a full sync).
import { setImmediate as turn } from 'node:timers/promises';
import type { Collection, Document, Filter } from 'mongodb';

/** Which `_id`s to page through (`$gte` / `$lt`), and whether from the highest down. */
export interface IdRange {
  gte?: unknown;
  lt?: unknown;
  descending?: boolean;
}

/**
 * `filter` must not name `_id` (`range` bounds it); an index on its equality keys followed by `_id`
 * serves each page as a seek (the patched FerretDB answers the sort from it too).
 */
export async function* pagesById<T extends { _id: unknown }>(
  collection: Collection<Document>,
  filter: Record<string, unknown>,
  size: number,
  projection?: Record<string, 1>,
  range: IdRange = {},
): AsyncGenerator<T[]> {
  // batchSize above the limit: the first reply holds the whole page and the server closes the
  // cursor with it, so no getMore and no snapshot outlive the page.
  const read = (after?: unknown): Promise<T[]> => {
    const bounds: Record<string, unknown> = {};
    if (range.gte !== undefined) bounds.$gte = range.gte;
    if (range.lt !== undefined) bounds.$lt = range.lt;
    // Past the last page's `_id`; going down, it is below any `lt` already.
    if (after !== undefined) bounds[range.descending ? '$lt' : '$gt'] = after;
    const query = (Object.keys(bounds).length ? { ...filter, _id: bounds } : filter) as Filter<Document>;
    return collection.find<T>(query, { sort: { _id: range.descending ? -1 : 1 }, limit: size, batchSize: size + 1, projection }).toArray();
  };
  let next: Promise<T[]> | null = read();
  try {
    while (next) {
      const page: T[] = await next;
      next = page.length === size ? read(page.at(-1)!._id) : null;
      // One turn of the event loop lets the driver write the next request before the caller's
      // synchronous work starts.
      await turn();
      if (page.length) yield page;
    }
  } finally {
    // A caller that stops early leaves a read in flight: its outcome no longer matters.
    next?.catch(() => undefined);
  }
}
