// Rows of a manual data source (spec "Endpoints › Data sources", rules 2–5). Changes reach the bot
// only after a sync of the data source.
import type { Send } from './http.ts';
import { everyItem, pageBody } from './paging.ts';
import type { DataSourceRow, DataSourceRowListItem, DataSourceRowUpdate, IterateOptions, NewDataSourceRow, Page, PageRequest, Pagination } from './types.ts';

export interface RowsClient {
  /** The API does not return the new rows' ids; list the rows to find them. */
  add(dataSourceId: string, rows: NewDataSourceRow[]): Promise<void>;
  /** One page of `{ id, name }`, oldest first. */
  list(dataSourceId: string, page?: PageRequest): Promise<Page<DataSourceRowListItem>>;
  iterate(dataSourceId: string, opts?: IterateOptions): AsyncGenerator<DataSourceRowListItem>;
  /** The whole row, `content` included. */
  get(dataSourceId: string, dataSourceRowId: string): Promise<DataSourceRow>;
  /**
   * Replaces name and content. An id outside the data source fails the request, and rows earlier in
   * the list may already have been updated (spec rule 2).
   */
  update(dataSourceId: string, rows: DataSourceRowUpdate[]): Promise<void>;
  /** Ids that do not exist are skipped (spec rule 3). */
  delete(dataSourceId: string, rowIds: string[]): Promise<void>;
}

export function rowsClient(send: Send): RowsClient {
  async function list(dataSourceId: string, page: PageRequest = {}): Promise<Page<DataSourceRowListItem>> {
    const res = await send<{ dataSourceRows: DataSourceRowListItem[]; pagination: Pagination }>('POST', '/data-sources/row/list', {
      body: { dataSourceId, ...pageBody(page) },
    });
    return { items: res.dataSourceRows, pagination: res.pagination };
  }

  return {
    async add(dataSourceId, rows) {
      await send('POST', '/data-sources/row', { body: { dataSourceId, dataSourceRows: rows } });
    },
    list,
    iterate: (dataSourceId, opts) => everyItem((page) => list(dataSourceId, page), opts),
    async get(dataSourceId, dataSourceRowId) {
      return (await send<{ dataSourceRow: DataSourceRow }>('GET', '/data-sources/row', { query: { dataSourceId, dataSourceRowId } })).dataSourceRow;
    },
    async update(dataSourceId, rows) {
      await send('PUT', '/data-sources/row', { body: { dataSourceId, dataSourceRows: rows } });
    },
    async delete(dataSourceId, rowIds) {
      await send('DELETE', '/data-sources/row', { body: { dataSourceId, dataSourceRows: rowIds.map((id) => ({ id })) } });
    },
  };
}
