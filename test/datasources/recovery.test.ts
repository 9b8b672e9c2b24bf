// A sync whose worker died stays `syncing` only until the sweeper sees its heartbeat go stale:
// it is restarted as a new run (and completes), or failed with a reason after the retries.
// The stuck state is written directly and time is driven by an injected clock.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { DataSourceModel, SyncClaimModel } from '../../src/datasources/model.ts';
import { EventModel } from '../../src/events/model.ts';
import { performSyncSweep, staleAfterMs } from '../../src/datasources/sweep.job.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { createDataSource, getDataSource } from './support.ts';

const clock = { at: new Date('2030-01-01T00:00:00Z').getTime(), now: () => new Date(clock.at) };

describe('recovery of a stuck sync', () => {
  const rt = useTestRuntime({ worker: false, clock });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
  });

  async function stuckSource(retries = 0): Promise<string> {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: '# A\n\nAlpha beta.' }] }).expect(200);
    // What a worker that died mid-sync leaves behind: syncing, a claim, a heartbeat that stopped.
    await DataSourceModel.updateOne({ _id: id }, { $set: { state: 'syncing', syncRun: 4, syncHeartbeatAt: clock.now(), syncStartedAt: clock.now(), syncRetries: retries } });
    await SyncClaimModel.create({ _id: id, run: 4, createdAt: clock.now() });
    return id;
  }

  it('leaves a sync alone while its heartbeat is fresh', async () => {
    const id = await stuckSource();
    clock.at += staleAfterMs(rt.runtime.ctx) - 1_000;
    const report = await performSyncSweep(rt.runtime.ctx);
    expect(report.retried).not.toContain(id);
    expect((await DataSourceModel.findById(id).lean())!.syncRun).toBe(4);
  });

  it('restarts a stale sync as a new run that then completes, and refuses a new start meanwhile', async () => {
    const id = await stuckSource();
    clock.at += staleAfterMs(rt.runtime.ctx) + 1_000;
    const report = await performSyncSweep(rt.runtime.ctx);
    expect(report.retried).toContain(id);
    const ds = await DataSourceModel.findById(id).lean();
    expect(ds).toMatchObject({ state: 'syncing', syncRun: 5, syncRetries: 1 });
    expect((await api('post', '/data-sources/sync', { dataSourceId: id })).status).toBe(429);
    const queued = await rt.runtime.ctx.jobs.queryJobs({ name: 'datasources.sync', data: { dataSourceId: id } });
    expect(queued.jobs.map((j) => (j.data as { run: number }).run)).toEqual([5]);
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run: 4 })).toBe('stale');
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run: 5 })).toBe('done');
    expect((await getDataSource(api, id)).state).toBe('synced');
    expect(await SyncClaimModel.findById(id).lean()).toBeNull();
  });

  it('fails a sync that is still stuck after the retries, with a reason and a failure event', async () => {
    const id = await stuckSource(2);
    clock.at += staleAfterMs(rt.runtime.ctx) + 60_000;
    const report = await performSyncSweep(rt.runtime.ctx);
    expect(report.failed).toContain(id);
    const ds = await DataSourceModel.findById(id).lean();
    expect(ds).toMatchObject({ state: 'sync_error', lastError: expect.stringMatching(/^sync interrupted: no progress for \d+ minutes/) });
    const event = await EventModel.findOne({ dataSourceId: id, type: 'sync.failure' }).lean();
    expect(event!.payload).toMatchObject({ success: false, reason: ds!.lastError });
    expect(await SyncClaimModel.findById(id).lean()).toBeNull();
    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
  });

  it('releases a stale claim left without a syncing data source', async () => {
    const id = await createDataSource(api);
    await SyncClaimModel.create({ _id: id, run: 1, createdAt: clock.now() });
    expect((await api('post', '/data-sources/sync', { dataSourceId: id })).status).toBe(429);
    clock.at += staleAfterMs(rt.runtime.ctx) + 1_000;
    expect((await performSyncSweep(rt.runtime.ctx)).releasedClaims).toContain(id);
    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
  });
});
