// The client's data-sources calls against the real app on both versions: create, list and iterate,
// get, sync interval, delete, and a sync started through the client that the worker finishes.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor, useListeningApp } from '../helpers/harness.ts';
import { createTenant, type Tenant } from '../helpers/factories.ts';
import { RelayApiError, type RelayClient } from '../../src/client/index.ts';
import { clientFor, failure, type SentRequest } from './support.ts';

describe.each(['1.0', '2.0'] as const)('data sources through the client on %s', (version) => {
  const rt = useTestRuntime();
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let client: RelayClient;
  let sent: SentRequest[];
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'enterprise' });
    ({ client, sent } = clientFor(app.baseUrl, tenant, version));
  });

  it('creates an empty data source that reads back the same through get', async () => {
    const created = await client.dataSources.create();
    expect(created).toEqual({ id: expect.any(String), type: 'MANUAL', state: 'not_synced', lastSync: null, syncInterval: null, createdAt: expect.any(String) });
    expect(await client.dataSources.get(created.id)).toEqual(created);
    expect(sent.at(-1)!.path).toBe(`/api/public/channels/${tenant.channelId}/${version}/data-sources?dataSourceId=${created.id}`);
  });

  it('lists one page and iterates every data source oldest first with the last id as cursor', async () => {
    for (let i = 0; i < 4; i++) await client.dataSources.create();
    const page = await client.dataSources.list({ limit: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.pagination).toEqual({ total: 5, last: page.items[1]!.id });
    sent.length = 0;
    const ids: string[] = [];
    for await (const ds of client.dataSources.iterate({ pageSize: 2 })) ids.push(ds.id);
    expect(ids).toHaveLength(5);
    expect(ids.slice(0, 2)).toEqual(page.items.map((d) => d.id));
    expect(sent.map((r) => r.body)).toEqual([{ limit: 2 }, { limit: 2, cursor: ids[1] }, { limit: 2, cursor: ids[3] }]);
  });

  it('updates the sync interval and returns the data source as it was before the change', async () => {
    const { id } = await client.dataSources.create();
    expect((await client.dataSources.updateSyncInterval(id, 'week')).syncInterval).toBeNull();
    expect((await client.dataSources.updateSyncInterval(id, null)).syncInterval).toBe('week');
    expect((await client.dataSources.get(id)).syncInterval).toBeNull();
  });

  it('deletes a data source, after which get is a 404 RelayApiError', async () => {
    const { id } = await client.dataSources.create();
    await client.dataSources.delete(id);
    const err = await failure(client.dataSources.get(id));
    expect(err).toBeInstanceOf(RelayApiError);
    expect(err).toMatchObject({ status: 404, code: 'data_source_not_found' });
  });

  it('starts a sync that the worker takes to synced', async () => {
    const { id } = await client.dataSources.create();
    await client.rows.add(id, [{ name: 'manual.md', content: '# Manual\n\nThe widget is charged over USB-C in two hours.' }]);
    await client.dataSources.sync(id);
    const ended = await waitFor(async () => {
      const ds = await client.dataSources.get(id);
      return ds.state !== 'syncing' && ds;
    }, 30_000);
    expect(ended.state).toBe('synced');
    expect(ended.lastSync).not.toBeNull();
    expect((await client.rows.get(id, (await client.rows.list(id)).items[0]!.id)).state).toBe('synced');
  });
});
