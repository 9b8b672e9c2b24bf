// The sync job's name and payload (ids only), below both the service, which cancels a deleted
// source's syncs, and sync.ts, which enqueues them.
export const SYNC_JOB = 'datasources.sync';
export interface SyncJobData {
  dataSourceId: string;
  run: number;
}
