// Manual data sources of the channel's bot (spec "Endpoints › Data sources").
import type { Send } from './http.ts';
import { everyItem, pageBody } from './paging.ts';
import type { DataSource, IterateOptions, Page, PageRequest, Pagination, SyncInterval } from './types.ts';

export interface DataSourcesClient {
  /** A new, empty data source in `not_synced`; 429 `data_source_limit_reached` at the plan's limit. */
  create(): Promise<DataSource>;
  /** One page, oldest first. */
  list(page?: PageRequest): Promise<Page<DataSource>>;
  /** Every data source, page by page; stops on a short page (spec "Common rules"). */
  iterate(opts?: IterateOptions): AsyncGenerator<DataSource>;
  get(dataSourceId: string): Promise<DataSource>;
  /** Sets the automatic re-sync interval (`null` = never) and returns the data source as it was before. */
  updateSyncInterval(dataSourceId: string, syncInterval: SyncInterval): Promise<DataSource>;
  /** Removes the data source and all its rows; cannot be undone. */
  delete(dataSourceId: string): Promise<void>;
  /** Starts a sync; the API answers 429 `already_syncing` when one is running. */
  sync(dataSourceId: string): Promise<void>;
}

export function dataSourcesClient(send: Send): DataSourcesClient {
  async function list(page: PageRequest = {}): Promise<Page<DataSource>> {
    const res = await send<{ dataSources: DataSource[]; pagination: Pagination }>('POST', '/data-sources/list', { body: pageBody(page) });
    return { items: res.dataSources, pagination: res.pagination };
  }

  return {
    async create() {
      return (await send<{ dataSource: DataSource }>('POST', '/data-sources')).dataSource;
    },
    list,
    iterate: (opts) => everyItem(list, opts),
    async get(dataSourceId) {
      return (await send<{ dataSource: DataSource }>('GET', '/data-sources', { query: { dataSourceId } })).dataSource;
    },
    async updateSyncInterval(dataSourceId, syncInterval) {
      return (await send<{ dataSource: DataSource }>('PUT', '/data-sources', { body: { dataSourceId, syncInterval } })).dataSource;
    },
    async delete(dataSourceId) {
      await send('DELETE', '/data-sources', { body: { dataSourceId } });
    },
    async sync(dataSourceId) {
      await send('POST', '/data-sources/sync', { body: { dataSourceId } });
    },
  };
}
