// Wire shapes of the data-sources API (spec "Resources and their fields"), picked field by field
// so internal fields (name, run counters, heartbeats) never leak through the public API.
import type { DataSource, DataSourceRow, SyncHook, SyncState } from './model.ts';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export const presentDataSource = (d: DataSource) => ({
  id: d._id,
  type: 'MANUAL' as const,
  state: d.state,
  lastSync: iso(d.lastSync),
  syncInterval: d.syncInterval ?? null,
  createdAt: iso(d.createdAt),
});

export const presentRowListItem = (r: Pick<DataSourceRow, '_id' | 'name'>) => ({ id: r._id, name: r.name });

export interface RowView {
  row: DataSourceRow;
  content: string;
  state: SyncState;
  lastSync: Date | null;
}

export const presentRow = (v: RowView) => ({
  id: v.row._id,
  name: v.row.name,
  content: v.content,
  type: 'MANUAL' as const,
  state: v.state,
  lastSync: iso(v.lastSync),
  lastModified: iso(v.row.lastModified),
  createdAt: iso(v.row.createdAt),
});

/** Admin view: the public fields plus the name and the last sync's outcome. */
export const presentDataSourceAdmin = (d: DataSource) => ({
  ...presentDataSource(d),
  botId: d.botId,
  name: d.name,
  lastError: d.lastError ?? null,
  lastResults: d.lastResults ?? null,
});

export const presentSyncHook = (h: SyncHook) => ({
  id: h._id,
  botId: h.botId,
  dataSourceId: h.dataSourceId,
  enabled: h.enabled,
  createdAt: iso(h.createdAt),
  updatedAt: iso(h.updatedAt),
});
