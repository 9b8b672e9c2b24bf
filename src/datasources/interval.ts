// `syncInterval` (spec "Data source (manual)"): one recurring Agenda job per data source, unique by
// its id, that starts a sync exactly like the API does. Changing the interval replaces the job;
// clearing it or deleting the data source cancels it. The first run is one interval after the
// change by the service's clock (Agenda would read the wall clock), so tests can drive it.
import type { Scheduler } from '../jobs/scheduler.ts';
import type { SyncInterval } from './model.ts';

export const INTERVAL_JOB = 'datasources.interval-sync';
export interface IntervalJobData {
  dataSourceId: string;
}

const EVERY: Record<SyncInterval, string> = { day: '1 day', week: '1 week', month: '1 month' };

export async function scheduleIntervalSync(jobs: Scheduler, dataSourceId: string, interval: SyncInterval | null, now: Date): Promise<void> {
  await cancelIntervalSync(jobs, dataSourceId);
  if (!interval) return;
  await jobs
    .create<IntervalJobData>(INTERVAL_JOB, { dataSourceId })
    // skipImmediate counts the first interval from nextRunAt, which schedule() sets to `now`.
    .schedule(now)
    .repeatEvery(EVERY[interval], { skipImmediate: true })
    .unique({ name: INTERVAL_JOB, 'data.dataSourceId': dataSourceId })
    .save();
}

export async function cancelIntervalSync(jobs: Scheduler, dataSourceId: string): Promise<void> {
  await jobs.cancel({ name: INTERVAL_JOB, data: { dataSourceId } });
}
