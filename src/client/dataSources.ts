// Data sources of the channel's bot (spec "Endpoints › Data sources"). Grows with the API.
import type { Send } from './http.ts';
import type { DataSource, Page, PageRequest } from './types.ts';

export interface DataSourcesClient {
  /** One page, oldest first. */
  list(page?: PageRequest): Promise<Page<DataSource>>;
  /** Every data source, page by page; stops on a short page (spec "Common rules"). */
  iterate(opts?: { pageSize?: number }): AsyncGenerator<DataSource>;
  get(dataSourceId: string): Promise<DataSource>;
  /** Starts a sync; the API answers 429 `already_syncing` when one is running. */
  sync(dataSourceId: string): Promise<void>;
}

export function dataSourcesClient(send: Send): DataSourcesClient {
  async function list(page: PageRequest = {}): Promise<Page<DataSource>> {
    const body: Record<string, unknown> = {};
    if (page.limit !== undefined) body.limit = page.limit;
    if (page.cursor) body.cursor = page.cursor;
    const res = await send<{ dataSources: DataSource[]; pagination: Page<DataSource>['pagination'] }>('POST', '/data-sources/list', { body });
    return { items: res.dataSources, pagination: res.pagination };
  }

  return {
    list,
    async *iterate(opts = {}) {
      const limit = opts.pageSize ?? 100;
      let cursor: string | null = null;
      for (;;) {
        const page: Page<DataSource> = await list({ limit, cursor });
        yield* page.items;
        if (page.items.length < limit || !page.pagination.last) return;
        cursor = page.pagination.last;
      }
    },
    async get(dataSourceId) {
      const res = await send<{ dataSource: DataSource }>('GET', '/data-sources', { query: { dataSourceId } });
      return res.dataSource;
    },
    async sync(dataSourceId) {
      await send('POST', '/data-sources/sync', { body: { dataSourceId } });
    },
  };
}
