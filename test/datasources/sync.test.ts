// Sync through the API with the job run directly (no worker): the states, one winner among
// concurrent starts, content-hash increments, row states, results and events, storage tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { setTeamPlan, getTeam } from '../../src/platform/service.ts';
import { EventModel } from '../../src/events/model.ts';
import { DataSourceModel, RowContentModel, SyncClaimModel } from '../../src/datasources/model.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { createDataSource, getDataSource, rowIds } from './support.ts';

describe.each(['1.0', '2.0'] as const)('sync on %s', (version) => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'pro' });
    api = publicApi(rt, tenant, version);
  });

  /** Starts a sync over HTTP and runs its job to the end in this process. */
  const sync = async (dataSourceId: string) => {
    await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
    const { DataSourceModel } = await import('../../src/datasources/model.ts');
    const ds = await DataSourceModel.findById(dataSourceId).lean();
    return performSync(rt.runtime.ctx, { dataSourceId, run: ds!.syncRun });
  };
  const row = async (dataSourceId: string, rowId: string) =>
    (await api('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${rowId}`).expect(200)).body.dataSourceRow;
  const lastEvent = (dataSourceId: string) => EventModel.findOne({ dataSourceId }).sort({ createdAt: -1, _id: -1 }).lean();

  it('is syncing right after the start, refuses a second start with 429, then ends synced', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: '# A\n\nAlpha.' }] }).expect(200);
    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
    expect((await getDataSource(api, id)).state).toBe('syncing');
    const [r] = await rowIds(api, id);
    expect((await row(id, r!.id)).state).toBe('syncing');
    const again = await api('post', '/data-sources/sync', { dataSourceId: id });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ success: false, code: 'already_syncing' });
    const { DataSourceModel } = await import('../../src/datasources/model.ts');
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run: (await DataSourceModel.findById(id).lean())!.syncRun })).toBe('done');
    const ds = await getDataSource(api, id);
    expect(ds.state).toBe('synced');
    expect(ds.lastSync).not.toBeNull();
    expect(await row(id, r!.id)).toMatchObject({ state: 'synced', lastSync: ds.lastSync });
  });

  it('lets exactly one of two concurrent starts through', async () => {
    const id = await createDataSource(api);
    const results = await Promise.all([api('post', '/data-sources/sync', { dataSourceId: id }), api('post', '/data-sources/sync', { dataSourceId: id })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
  });

  it('lets exactly one of fifty parallel starts through', async () => {
    const id = await createDataSource(api);
    const results = await Promise.all(Array.from({ length: 50 }, () => api('post', '/data-sources/sync', { dataSourceId: id })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(49);
    expect(results.filter((r) => r.status === 429).every((r) => r.body.code === 'already_syncing' && r.body.success === false)).toBe(true);
  });

  it('re-processes only rows changed since the last sync and reports it in the sync success event', async () => {
    const id = await createDataSource(api);
    await adminApi(rt)('patch', `/bots/${tenant.botId}/data-sources/${id}`, { name: 'Product catalog' }).expect(200);
    const content = (n: number) => `# Product ${n}\n\nThe widget number ${n} is blue.\n\n## Care\n\nWipe it with a cloth.`;
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [1, 2, 3].map((n) => ({ name: `p${n}`, content: content(n) })) }).expect(200);
    expect(await sync(id)).toBe('done');
    const first = await lastEvent(id);
    expect(first).toMatchObject({ type: 'sync.success', botId: tenant.botId, teamId: tenant.teamId });
    expect(first!.payload).toEqual({
      success: true,
      results: { totalTokens: expect.any(Number), modifiedRows: 3, totalDocuments: 6, unmodifiedRows: 0, totalDataSourceRows: 3 },
      bot: 'Test bot',
      dataSource: 'Product catalog',
    });
    expect(first!.payload.results.totalTokens).toBeGreaterThan(0);

    const [r1, r2, r3] = await rowIds(api, id);
    const untouchedBefore = await row(id, r3!.id);
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: r1!.id, name: 'p1', content: content(11) }] }).expect(200);
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: r3!.id, name: 'renamed only', content: content(3) }] }).expect(200);
    await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: r2!.id }] }).expect(200);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'p4', content: content(4) }] }).expect(200);
    expect((await row(id, r1!.id)).state).toBe('not_synced');
    expect((await row(id, r3!.id)).state).toBe('synced');

    expect(await sync(id)).toBe('done');
    const second = await lastEvent(id);
    expect(second!.payload.results).toMatchObject({ modifiedRows: 2, unmodifiedRows: 1, totalDataSourceRows: 3, totalDocuments: 6 });
    expect(second!.payload.results.totalTokens).toBeLessThan(first!.payload.results.totalTokens);
    expect((await row(id, r1!.id)).state).toBe('synced');
    expect((await row(id, r3!.id)).lastSync).toBe(untouchedBefore.lastSync);

    expect(await sync(id)).toBe('done');
    expect((await lastEvent(id))!.payload.results).toMatchObject({ totalTokens: 0, modifiedRows: 0, unmodifiedRows: 3 });
  });

  it('charges the tokens of each sync to the team', async () => {
    const t = await createTenant();
    const own = publicApi(rt, t, version);
    const id = await createDataSource(own);
    await own('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'Some words to count.' }] }).expect(200);
    await own('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
    const { DataSourceModel } = await import('../../src/datasources/model.ts');
    await performSync(rt.runtime.ctx, { dataSourceId: id, run: (await DataSourceModel.findById(id).lean())!.syncRun });
    const event = await lastEvent(id);
    expect((await getTeam(t.teamId)).usage?.storageTokens).toBe(event!.payload.results.totalTokens);
    expect(event!.payload.results.totalTokens).toBe(5);
  });

  it('refuses with 429 when the team has no storage tokens left or the sync would exceed them, changing nothing', async () => {
    const t = await createTenant();
    const own = publicApi(rt, t, version);
    const id = await createDataSource(own);
    await own('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'big', content: 'word '.repeat(400) }] }).expect(200);
    await setTeamPlan(t.teamId, 'standard', { storageTokens: 100 });
    const over = await own('post', '/data-sources/sync', { dataSourceId: id });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, code: 'storage_tokens_exhausted', estimatedTokens: 500, remainingTokens: 100 });
    expect((await getDataSource(own, id)).state).toBe('not_synced');
    await setTeamPlan(t.teamId, 'standard', { storageTokens: 0 });
    const none = await own('post', '/data-sources/sync', { dataSourceId: id });
    expect(none.status).toBe(429);
    expect(none.body.code).toBe('storage_tokens_exhausted');
    await setTeamPlan(t.teamId, 'standard', { storageTokens: 1_000 });
    await own('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
  });

  it('ends in sync_error with a reason and a sync failure event when a row cannot be processed, and recovers on the next sync', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'Alpha' }] }).expect(200);
    const [r] = await rowIds(api, id);
    const good = await RowContentModel.findById(r!.id).lean();
    await RowContentModel.updateOne({ _id: r!.id }, { $set: { data: Buffer.from('not deflate data') } });
    expect(await sync(id)).toBe('failed');
    expect((await getDataSource(api, id)).state).toBe('sync_error');
    const failure = await lastEvent(id);
    expect(failure).toMatchObject({ type: 'sync.failure' });
    expect(failure!.payload).toEqual({ success: false, reason: expect.stringMatching(/^sync failed: /), bot: 'Test bot', dataSource: expect.stringMatching(/^Data source \d+$/) });
    await RowContentModel.updateOne({ _id: r!.id }, { $set: { data: good!.data } });
    expect((await row(id, r!.id)).state).toBe('sync_error');
    expect(await sync(id)).toBe('done');
    expect((await getDataSource(api, id)).state).toBe('synced');
  });

  it('runs a job picked up before its start wrote the run (the start enqueues beside that write)', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: '# A\n\nAlpha.' }] }).expect(200);
    const run = (await DataSourceModel.findById(id).lean())!.syncRun + 1;
    await SyncClaimModel.create({ _id: id, run, createdAt: new Date() });
    const job = performSync(rt.runtime.ctx, { dataSourceId: id, run });
    await new Promise((r) => setTimeout(r, 120));
    const now = new Date();
    await DataSourceModel.updateOne({ _id: id }, { $set: { state: 'syncing', syncRun: run, syncStartedAt: now, syncHeartbeatAt: now } });
    expect(await job).toBe('done');
    expect((await getDataSource(api, id)).state).toBe('synced');
  });

  it('ends a job whose start never wrote its run as stale, changing nothing', async () => {
    const id = await createDataSource(api);
    const run = (await DataSourceModel.findById(id).lean())!.syncRun + 1;
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run })).toBe('stale');
    expect((await getDataSource(api, id)).state).toBe('not_synced');
  });

  it('ignores a job whose run is no longer the current one', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run: 99 })).toBe('stale');
    expect((await getDataSource(api, id)).state).toBe('syncing');
  });
});
