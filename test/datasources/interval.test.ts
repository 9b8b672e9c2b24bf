// `syncInterval` as one recurring Agenda job per data source: its first run is one interval after
// the change by the injected clock, a change replaces it, null or deletion cancels it, and a due
// run goes through the worker like an API sync (syncing, then synced). No date here depends on
// how fast the wall clock moves.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { INTERVAL_JOB } from '../../src/datasources/interval.ts';
import { performIntervalSync } from '../../src/datasources/index.ts';
import { DataSourceModel } from '../../src/datasources/model.ts';
import { SYNC_JOB } from '../../src/datasources/sync.ts';
import { EventModel } from '../../src/events/model.ts';
import { createDataSource, getDataSource, waitForSyncEnd } from './support.ts';
import { heldSyncs } from './heldSync.ts';

const DAY = 86_400_000;
const settableClock = (iso: string) => {
  const clock = { at: Date.parse(iso), now: () => new Date(clock.at) };
  return clock;
};

describe.each(['1.0', '2.0'] as const)('sync interval on %s', (version) => {
  const clock = settableClock('2030-01-01T00:00:00Z');
  const rt = useTestRuntime({ worker: false, clock });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant, version);
  });
  const jobsOf = async (dataSourceId: string) => (await rt.runtime.ctx.jobs.queryJobs({ name: INTERVAL_JOB, data: { dataSourceId } })).jobs;
  const nextRunAt = async (dataSourceId: string) => {
    const jobs = await jobsOf(dataSourceId);
    expect(jobs).toHaveLength(1);
    return new Date(jobs[0]!.nextRunAt!).getTime();
  };

  it('schedules one recurring job exactly a day, a week or 30 days after the change, replacing the previous one', async () => {
    const id = await createDataSource(api);
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }).expect(200);
    expect((await jobsOf(id))[0]!.repeatInterval).toBe('1 day');
    expect(await nextRunAt(id)).toBe(clock.at + DAY);

    clock.at += 5 * 3_600_000;
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'week' }).expect(200);
    expect(await nextRunAt(id)).toBe(clock.at + 7 * DAY);

    clock.at += 3 * DAY;
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'month' }).expect(200);
    expect((await jobsOf(id))[0]!.repeatInterval).toBe('1 month');
    expect(await nextRunAt(id)).toBe(clock.at + 30 * DAY);
  });

  it('keeps the jobs of different data sources apart', async () => {
    const a = await createDataSource(api);
    const b = await createDataSource(api);
    await api('put', '/data-sources', { dataSourceId: a, syncInterval: 'day' }).expect(200);
    await api('put', '/data-sources', { dataSourceId: b, syncInterval: 'week' }).expect(200);
    await api('put', '/data-sources', { dataSourceId: a, syncInterval: null }).expect(200);
    expect(await jobsOf(a)).toHaveLength(0);
    expect(await nextRunAt(b)).toBe(clock.at + 7 * DAY);
  });

  it('cancels the job when the data source is deleted', async () => {
    const id = await createDataSource(api);
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }).expect(200);
    await api('delete', '/data-sources', { dataSourceId: id }).expect(200);
    expect(await jobsOf(id)).toHaveLength(0);
  });

  it('starts a sync when the job runs, skips while one is running, and removes itself for a deleted source', async () => {
    const id = await createDataSource(api);
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }).expect(200);
    expect(await performIntervalSync(rt.runtime.ctx, { dataSourceId: id })).toBe('started');
    expect((await getDataSource(api, id)).state).toBe('syncing');
    expect(await performIntervalSync(rt.runtime.ctx, { dataSourceId: id })).toBe('skipped');
    expect(await performIntervalSync(rt.runtime.ctx, { dataSourceId: '00000000-0000-4000-8000-000000000000' })).toBe('gone');
  });
});

describe('a due interval sync on the worker', () => {
  // The interval is set "on" 2020-01-01 by the service's clock, so its first run (a day later) is
  // already due for the worker, which compares nextRunAt with the time it polls.
  const clock = settableClock('2020-01-01T00:00:00Z');
  const held = heldSyncs();
  const rt = useTestRuntime({ clock, modules: held.modules });
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    api = publicApi(rt, await createTenant());
  });

  it('runs the interval job, syncs through the worker from syncing to synced, repeats a day later and stops when the source is deleted', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: '# A\n\nAlpha beta.' }] }).expect(200);
    held.hold();
    try {
      await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }).expect(200);
      const ran = await waitFor(async () => (await rt.runtime.ctx.jobs.queryJobs({ name: INTERVAL_JOB, data: { dataSourceId: id } })).jobs.find((j) => j.lastFinishedAt));
      // The interval job has ended; its sync job is held, so the source is deterministically syncing.
      expect(await getDataSource(api, id)).toMatchObject({ state: 'syncing', lastSync: null });
      expect((await DataSourceModel.findById(id).lean())!.syncTrigger).toBe('interval');
      expect(new Date(ran.nextRunAt!).getTime() - new Date(ran.lastRunAt!).getTime()).toBe(DAY);
      expect((await rt.runtime.ctx.jobs.queryJobs({ name: SYNC_JOB, data: { dataSourceId: id } })).jobs).toHaveLength(1);
    } finally {
      held.release();
    }
    const done = await waitForSyncEnd(api, id);
    expect(done).toMatchObject({ state: 'synced', lastSync: new Date(clock.at).toISOString() });
    // completeSync writes `synced` first and emits the event after it.
    await waitFor(() => EventModel.exists({ dataSourceId: id, type: 'sync.success' }));

    await api('delete', '/data-sources', { dataSourceId: id }).expect(200);
    expect((await rt.runtime.ctx.jobs.queryJobs({ names: [INTERVAL_JOB, SYNC_JOB], data: { dataSourceId: id } })).jobs.filter((j) => j.name === INTERVAL_JOB)).toHaveLength(0);
  });
});
