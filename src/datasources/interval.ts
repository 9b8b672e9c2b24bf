// `syncInterval` (spec "Data source (manual)"): one recurring Agenda job per data source, unique by
// its id, that starts a sync exactly like the API does. Changing the interval replaces the job;
// clearing it or deleting the data source cancels it.
import type { Scheduler } from '../jobs/scheduler.ts';
import type { SyncInterval } from './model.ts';

export const INTERVAL_JOB = 'datasources.interval-sync';
export interface IntervalJobData {
  dataSourceId: string;
}

const EVERY: Record<SyncInterval, string> = { day: '1 day', week: '1 week', month: '1 month' };

export async function scheduleIntervalSync(jobs: Scheduler, dataSourceId: string, interval: SyncInterval | null): Promise<void> {
  await cancelIntervalSync(jobs, dataSourceId);
  if (!interval) return;
  await jobs
    .create<IntervalJobData>(INTERVAL_JOB, { dataSourceId })
    .repeatEvery(EVERY[interval], { skipImmediate: true })
    .unique({ name: INTERVAL_JOB, 'data.dataSourceId': dataSourceId })
    .save();
}

export async function cancelIntervalSync(jobs: Scheduler, dataSourceId: string): Promise<void> {
  await jobs.cancel({ name: INTERVAL_JOB, data: { dataSourceId } });
}
