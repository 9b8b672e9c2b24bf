// Two Relay processes on one database: this test's runtime syncs and deletes, a second `src/main.ts`
// answers. The answering process keeps the bot's segment list between questions (knowledge
// service), and must still answer from a finished re-sync, and stop answering from a deleted data
// source, at its very next question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi as localApi, type Tenant } from '../helpers/factories.ts';
import { publicApi as remoteApi, relayCluster } from '../reliability/support/cluster.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';

describe('knowledge seen by another process', () => {
  const rt = useTestRuntime();
  let cluster: ReturnType<typeof relayCluster>;
  let ask: (message: string) => Promise<{ response: string; sources: Array<{ rowId: string; dataSourceId: string }> }>;
  let tenant: Tenant;

  beforeAll(async () => {
    cluster = relayCluster({ MONGODB_URI: rt.uri, JOB_PROCESS_EVERY_MS: '200' });
    const other = await cluster.start('api');
    tenant = await createTenant();
    const api = remoteApi(other, tenant);
    ask = async (message) => {
      const res = await api('POST', '/message', { message });
      if (res.status !== 200) throw new Error(`message failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
  }, 180_000);
  afterAll(async () => {
    await cluster?.stopAll();
  });

  // Four syncs and seven replies across two processes: a bound for a loaded two-core machine.
  it('answers from a re-sync and stops answering from a deleted source at the next question', { timeout: 240_000 }, async () => {
    const api = localApi(rt, tenant);
    const dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'gizmos.md', content: '# Gizmos\n\nGizmos are purple.' }] }).expect(200);
    await syncAndWait(api, dataSourceId);
    const [row] = await rowIds(api, dataSourceId);

    // Asked twice: the second question is answered from the list the first one read.
    for (let i = 0; i < 2; i++) {
      const reply = await ask('What colour are gizmos?');
      expect(reply.sources).toEqual([{ rowId: row!.id, dataSourceId }]);
      expect(reply.response).toContain('purple');
    }

    await api('put', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: row!.id, name: 'gizmos.md', content: '# Gizmos\n\nGizmos are green.' }] }).expect(200);
    await syncAndWait(api, dataSourceId);
    const resynced = await ask('What colour are gizmos?');
    expect(resynced.response).toContain('green');
    expect(resynced.response).not.toContain('purple');

    // A second source keeps the bot's list non-empty, so only the deleted one can go missing.
    const otherSource = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: otherSource, dataSourceRows: [{ name: 'widgets.md', content: '# Widgets\n\nWidgets are square.' }] }).expect(200);
    await syncAndWait(api, otherSource);
    expect((await ask('What colour are gizmos?')).sources).toEqual([{ rowId: row!.id, dataSourceId }]);

    await api('delete', '/data-sources', { dataSourceId }).expect(200);
    expect((await ask('What colour are gizmos?')).sources).toEqual([]);
    expect((await ask('What shape are widgets?')).sources.map((s) => s.dataSourceId)).toEqual([otherSource]);
  });
});
