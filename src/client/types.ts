// Wire types of the public API (spec "Resources and their fields"), as a client sees them.
// Kept apart from the server's models on purpose: the client only knows what crosses the wire.

export type ApiVersion = '1.0' | '2.0';
export type DataSourceState = 'not_synced' | 'syncing' | 'synced' | 'sync_error';
export type SyncInterval = 'day' | 'week' | 'month' | null;

export interface DataSource {
  id: string;
  type: 'MANUAL';
  state: DataSourceState;
  lastSync: string | null;
  syncInterval: SyncInterval;
  createdAt: string;
}

/** The page envelope of every list response. */
export interface Pagination {
  total: number;
  last: string | null;
}

export interface PageRequest {
  /** 1 to 100 (default 10 on the server). */
  limit?: number;
  /** The previous page's `pagination.last`; omit for the first page. */
  cursor?: string | null;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}
