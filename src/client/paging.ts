// The list contract every resource shares (spec "Common rules"): a page request body, and walking
// all pages with `pagination.last` as the next cursor until a short page.
import type { IterateOptions, Page, PageRequest } from './types.ts';

/** The body fields of a page request; an absent cursor is left out, not sent as null. */
export function pageBody(page: PageRequest = {}): { limit?: number; cursor?: string } {
  return { ...(page.limit !== undefined ? { limit: page.limit } : {}), ...(page.cursor ? { cursor: page.cursor } : {}) };
}

export async function* everyItem<T>(list: (page: PageRequest) => Promise<Page<T>>, opts: IterateOptions = {}): AsyncGenerator<T> {
  const limit = opts.pageSize ?? 100;
  let cursor: string | null = null;
  for (;;) {
    const page: Page<T> = await list({ limit, cursor });
    yield* page.items;
    if (page.items.length < limit || !page.pagination.last) return;
    cursor = page.pagination.last;
  }
}
