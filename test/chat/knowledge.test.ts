// Replies use synced knowledge only (spec "Data sources" rule 5): rows added or changed after the
// last sync never reach the bot until the next sync. Everything goes through the public HTTP API.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, useListeningApp } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';
import { postMessage, readSse } from './support.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';

describe('chat over synced knowledge', () => {
  const rt = useTestRuntime();
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let dataSourceId: string;

  const sync = async () => expect((await syncAndWait(api, dataSourceId)).state).toBe('synced');
  const rowIdOf = async (name: string) => (await rowIds(api, dataSourceId)).find((r) => r.name === name)!.id;

  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
    dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', {
      dataSourceId,
      dataSourceRows: [{ name: 'returns.md', content: '# Returns\n\nZucchini blenders can be returned within 30 days of delivery.' }],
    }).expect(200);
    await sync();
  });

  it('answers from a synced row and never from an unsynced one', async () => {
    await api('post', '/data-sources/row', {
      dataSourceId,
      dataSourceRows: [{ name: 'warranty.md', content: '# Warranty\n\nQuasar kettles carry a warranty of seven years.' }],
    }).expect(200);
    const synced = await api('post', '/message', { message: 'How long can I return a zucchini blender?' });
    expect(synced.body.response).toContain('within 30 days');
    expect(synced.body.sources).toEqual([{ rowId: await rowIdOf('returns.md'), dataSourceId }]);
    const unsynced = await api('post', '/message', { message: 'What warranty do quasar kettles have?' });
    expect(unsynced.body.response).toBe(NO_ANSWER);
    expect(unsynced.body.sources).toEqual([]);

    await sync();
    const afterSync = await api('post', '/message', { message: 'What warranty do quasar kettles have?' });
    expect(afterSync.body.response).toContain('seven years');
  });

  it('keeps answering from the synced content of a row changed since the last sync', async () => {
    const rowId = await rowIdOf('returns.md');
    await api('put', '/data-sources/row', {
      dataSourceId,
      dataSourceRows: [{ id: rowId, name: 'returns.md', content: '# Returns\n\nZucchini blenders can be returned within 90 days of delivery.' }],
    }).expect(200);
    const before = await api('post', '/message', { message: 'zucchini blender return' });
    expect(before.body.response).toContain('30 days');
    expect(before.body.response).not.toContain('90 days');
    await sync();
    const after = await api('post', '/message', { message: 'zucchini blender return' });
    expect(after.body.response).toContain('90 days');
  });

  it('reports the sources in the 2.0 data-turn chunk', async () => {
    const { chunks } = await readSse(await postMessage(app.baseUrl, tenant, '2.0', { message: 'zucchini blender return', stream: true }));
    const turn = chunks.find((c) => c.type === 'data-turn') as { data: { sources: unknown[] } };
    expect(turn.data.sources).toEqual([{ rowId: await rowIdOf('returns.md'), dataSourceId }]);
  });
});
