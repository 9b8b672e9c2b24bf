// The public API client against a real local server: paging, typed errors, timeouts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayClient, RelayApiError } from '../../src/client/index.ts';
import { startPublicApiStub, type PublicApiStub } from './support/publicApiStub.ts';

describe('public API client', () => {
  let stub: PublicApiStub;
  beforeAll(async () => {
    stub = await startPublicApiStub(23, (i) => (i % 5 === 0 ? 'sync_error' : 'synced'));
  });
  afterAll(() => stub.close());
  const client = () => createRelayClient({ baseUrl: `${stub.baseUrl}/`, channelId: stub.channelId, secretKey: stub.secretKey });

  it('iterates every data source page by page, passing the cursor and stopping on a short page', async () => {
    const ids: string[] = [];
    for await (const ds of client().dataSources.iterate({ pageSize: 10 })) ids.push(ds.id);
    expect(ids).toEqual(stub.dataSources.map((d) => d.id));
    expect(stub.listCalls).toEqual([{ limit: 10 }, { limit: 10, cursor: stub.dataSources[9]!.id }, { limit: 10, cursor: stub.dataSources[19]!.id }]);
  });

  it('lists one page with its pagination envelope', async () => {
    const page = await client().dataSources.list({ limit: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.pagination).toEqual({ total: 23, last: stub.dataSources[1]!.id });
  });

  it('gets a data source and starts its sync', async () => {
    const target = stub.dataSources[0]!;
    expect((await client().dataSources.get(target.id)).state).toBe('sync_error');
    await client().dataSources.sync(target.id);
    expect((await client().dataSources.get(target.id)).state).toBe('syncing');
  });

  it('turns refusals into RelayApiError with the status and code', async () => {
    const err = await client().dataSources.sync(stub.dataSources[0]!.id).catch((e) => e);
    expect(err).toBeInstanceOf(RelayApiError);
    expect(err).toMatchObject({ status: 429, code: 'already_syncing' });
    const forbidden = await createRelayClient({ baseUrl: stub.baseUrl, channelId: stub.channelId, secretKey: 'wrong' }).dataSources.list().catch((e) => e);
    expect(forbidden).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('reports an unreachable server as status 0 instead of throwing something else', async () => {
    const err = await createRelayClient({ baseUrl: 'http://127.0.0.1:1', channelId: stub.channelId, secretKey: 'x', timeoutMs: 2000 }).dataSources.list().catch((e) => e);
    expect(err).toBeInstanceOf(RelayApiError);
    expect(err.status).toBe(0);
  });
});
