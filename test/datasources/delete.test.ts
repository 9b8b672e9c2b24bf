// Deleting a data source (spec "Data sources" rule 1): its queued sync job, its interval job, its
// sync hooks and its sync claim go with it, and a sync that is running when it is deleted leaves no
// knowledge behind when it finishes, so the bot never answers from the deleted source.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { INTERVAL_JOB } from '../../src/datasources/interval.ts';
import { DataSourceModel, DataSourceRowModel, RowContentModel, SyncClaimModel, SyncHookModel } from '../../src/datasources/model.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { SYNC_JOB } from '../../src/datasources/sync.ts';
import { searchKnowledge } from '../../src/knowledge/service.ts';
import { KnowledgeManifestModel, KnowledgePackModel, KnowledgeSegmentModel } from '../../src/knowledge/model.ts';
import { getTeam } from '../../src/platform/service.ts';
import { createDataSource, rowIds } from './support.ts';

describe('deleting a data source', () => {
  const rt = useTestRuntime({ worker: false });
  let admin: ReturnType<typeof adminApi>;
  beforeAll(() => {
    admin = adminApi(rt);
  });

  async function tenantWithSource(content: string) {
    const tenant = await createTenant();
    const api = publicApi(rt, tenant);
    const dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'facts.md', content }] }).expect(200);
    return { tenant, api, dataSourceId };
  }
  const jobsOf = async (name: string, dataSourceId: string) => (await rt.runtime.ctx.jobs.queryJobs({ name, data: { dataSourceId } })).jobs;
  const knowledgeDocuments = async (dataSourceId: string) =>
    (await KnowledgeSegmentModel.countDocuments({ _id: dataSourceId })) +
    (await KnowledgePackModel.countDocuments({ dataSourceId })) +
    (await KnowledgeManifestModel.countDocuments({ dataSourceId }));
  const answersFrom = async (tenant: Tenant, dataSourceId: string, query: string) =>
    (await searchKnowledge(tenant.botId, query)).filter((hit) => hit.dataSourceId === dataSourceId);
  /** Starts a sync over the API and runs its job here, calling `onBeat` at each heartbeat. */
  const runSync = async (api: ReturnType<typeof publicApi>, dataSourceId: string, onBeat: (beat: number) => Promise<void> = async () => {}) => {
    await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
    const run = (await DataSourceModel.findById(dataSourceId).lean())!.syncRun;
    let beats = 0;
    const outcome = await performSync(rt.runtime.ctx, { dataSourceId, run }, { touch: () => onBeat(++beats) });
    return { outcome, beats };
  };

  it('cancels its queued sync job and its interval job, and removes its sync hooks, claim and rows', async () => {
    const { tenant, api, dataSourceId } = await tenantWithSource('# Hours\n\nOpen at nine.');
    await api('put', '/data-sources', { dataSourceId, syncInterval: 'week' }).expect(200);
    const hook = await admin('post', `/bots/${tenant.botId}/data-sources/${dataSourceId}/sync-hooks`).expect(201);
    await admin('put', `/bots/${tenant.botId}/sync-hooks/${hook.body.hook.id}/enabled`, { enabled: true }).expect(200);
    await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
    expect(await jobsOf(SYNC_JOB, dataSourceId)).toHaveLength(1);
    expect(await jobsOf(INTERVAL_JOB, dataSourceId)).toHaveLength(1);
    expect(await SyncClaimModel.findById(dataSourceId).lean()).not.toBeNull();

    await api('delete', '/data-sources', { dataSourceId }).expect(200);

    expect(await jobsOf(SYNC_JOB, dataSourceId)).toHaveLength(0);
    expect(await jobsOf(INTERVAL_JOB, dataSourceId)).toHaveLength(0);
    expect(await SyncHookModel.countDocuments({ dataSourceId })).toBe(0);
    expect((await admin('get', `/bots/${tenant.botId}/sync-hooks`).expect(200)).body.hooks).toEqual([]);
    expect((await rt.http().post(new URL(hook.body.url).pathname)).status).toBe(404);
    expect(await SyncClaimModel.findById(dataSourceId).lean()).toBeNull();
    expect(await DataSourceRowModel.countDocuments({ dataSourceId })).toBe(0);
    expect(await RowContentModel.countDocuments({ dataSourceId })).toBe(0);
  });

  it('removes the knowledge of its last sync at once, so the bot stops answering from it', async () => {
    const { tenant, api, dataSourceId } = await tenantWithSource('# Pets\n\nThe zebrafish is fed twice a day.');
    expect((await runSync(api, dataSourceId)).outcome).toBe('done');
    expect(await answersFrom(tenant, dataSourceId, 'zebrafish')).not.toHaveLength(0);
    await api('delete', '/data-sources', { dataSourceId }).expect(200);
    expect(await answersFrom(tenant, dataSourceId, 'zebrafish')).toEqual([]);
    expect(await knowledgeDocuments(dataSourceId)).toBe(0);
  });

  // A one-row sync beats twice: after reading what changed, and just before it commits.
  it.each([
    ['at its first heartbeat, before it has learned anything', 1],
    ['at its last heartbeat, so it commits after the delete', 2],
  ])('leaves no knowledge behind when deleted during a running sync %s', async (_when, deleteAtBeat) => {
    const { tenant, api, dataSourceId } = await tenantWithSource('# Pets\n\nThe zebrafish is fed twice a day.');
    expect((await runSync(api, dataSourceId)).outcome).toBe('done');
    const [row] = await rowIds(api, dataSourceId);
    await api('put', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: row!.id, name: 'facts.md', content: '# Pets\n\nThe quokka sleeps all day.' }] }).expect(200);
    const usage = async () => (await getTeam(tenant.teamId)).usage?.storageTokens ?? 0;
    const charged = await usage();
    expect(charged).toBeGreaterThan(0);

    const { outcome, beats } = await runSync(api, dataSourceId, async (beat) => {
      if (beat !== deleteAtBeat) return;
      await api('delete', '/data-sources', { dataSourceId }).expect(200);
      expect(await answersFrom(tenant, dataSourceId, 'zebrafish')).toEqual([]);
    });

    expect(beats).toBe(deleteAtBeat);
    expect(outcome).toBe('stale');
    expect(await knowledgeDocuments(dataSourceId)).toBe(0);
    expect(await answersFrom(tenant, dataSourceId, 'zebrafish quokka')).toEqual([]);
    expect(await DataSourceModel.exists({ _id: dataSourceId })).toBeNull();
    // A sync that did not complete costs nothing, even one that charged just before it lost its source.
    expect(await usage()).toBe(charged);
  });
});
