// Helpers for the data-sources tests: wait for a sync to end, read a data source, list all rows.
import { waitFor } from '../helpers/harness.ts';
import type { publicApi } from '../helpers/factories.ts';

type Api = ReturnType<typeof publicApi>;

export async function createDataSource(api: Api): Promise<string> {
  const res = await api('post', '/data-sources').expect(200);
  return res.body.dataSource.id as string;
}

export async function getDataSource(api: Api, dataSourceId: string) {
  const res = await api('get', `/data-sources?dataSourceId=${dataSourceId}`).expect(200);
  return res.body.dataSource as { id: string; state: string; lastSync: string | null; syncInterval: string | null; createdAt: string; type: string };
}

/** Polls until the data source leaves `syncing`; returns its final state. */
export async function waitForSyncEnd(api: Api, dataSourceId: string, timeoutMs = 30_000) {
  return waitFor(async () => {
    const ds = await getDataSource(api, dataSourceId);
    return ds.state === 'syncing' ? null : ds;
  }, timeoutMs);
}

export async function syncAndWait(api: Api, dataSourceId: string) {
  await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
  return waitForSyncEnd(api, dataSourceId);
}

export async function rowIds(api: Api, dataSourceId: string): Promise<Array<{ id: string; name: string }>> {
  const out: Array<{ id: string; name: string }> = [];
  let cursor: string | null = null;
  for (;;) {
    const res: { body: { dataSourceRows: Array<{ id: string; name: string }>; pagination: { last: string | null } } } = await api('post', '/data-sources/row/list', {
      dataSourceId,
      limit: 100,
      ...(cursor ? { cursor } : {}),
    }).expect(200);
    out.push(...res.body.dataSourceRows);
    if (res.body.dataSourceRows.length < 100) return out;
    cursor = res.body.pagination.last;
  }
}
