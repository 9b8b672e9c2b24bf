// `syncInterval` as one recurring Agenda job per data source: its stored nextRunAt follows the
// interval, a change replaces it, null or deletion cancels it, and a due run starts a sync.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { INTERVAL_JOB } from '../../src/datasources/interval.ts';
import { performIntervalSync } from '../../src/datasources/index.ts';
import { createDataSource, getDataSource } from './support.ts';

const DAY = 86_400_000;

describe.each(['1.0', '2.0'] as const)('sync interval on %s', (version) => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant, version);
  });
  const jobsOf = async (dataSourceId: string) =>
    (await rt.runtime.ctx.jobs.queryJobs({ name: INTERVAL_JOB, data: { dataSourceId } })).jobs;
  const dueIn = (job: { nextRunAt?: Date | null }) => new Date(job.nextRunAt!).getTime() - Date.now();

  it('schedules one recurring job a day, a week or a month ahead, replacing the previous one', async () => {
    const id = await createDataSource(api);
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }).expect(200);
    let jobs = await jobsOf(id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.repeatInterval).toBe('1 day');
    expect(dueIn(jobs[0]!)).toBeGreaterThan(DAY - 60_000);
    expect(dueIn(jobs[0]!)).toBeLessThanOrEqual(DAY);

    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'week' }).expect(200);
    jobs = await jobsOf(id);
    expect(jobs).toHaveLength(1);
    expect(dueIn(jobs[0]!)).toBeGreaterThan(7 * DAY - 60_000);

    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'month' }).expect(200);
    jobs = await jobsOf(id);
    expect(jobs).toHaveLength(1);
    expect(dueIn(jobs[0]!)).toBeGreaterThan(27 * DAY);
    expect(dueIn(jobs[0]!)).toBeLessThan(32 * DAY);
  });

  it('keeps the jobs of different data sources apart', async () => {
    const a = await createDataSource(api);
    const b = await createDataSource(api);
    await api('put', '/data-sources', { dataSourceId: a, syncInterval: 'day' }).expect(200);
    await api('put', '/data-sources', { dataSourceId: b, syncInterval: 'week' }).expect(200);
    await api('put', '/data-sources', { dataSourceId: a, syncInterval: null }).expect(200);
    expect(await jobsOf(a)).toHaveLength(0);
    expect(await jobsOf(b)).toHaveLength(1);
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
