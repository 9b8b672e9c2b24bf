// datasources.sweep: no sync stays `syncing` forever. A run whose heartbeat is older than the
// stale window (its worker died, or its job was lost) is restarted as a new run, up to
// MAX_SYNC_RETRIES times, then failed with a reason. Claims left without a syncing source go.
import type { AppContext } from '../context.ts';
import { DataSourceModel, SyncClaimModel, type DataSource } from './model.ts';
import { failSync, SYNC_JOB, type SyncJobData } from './sync.ts';
import { trusted } from '../db/connection.ts';

export const SWEEP_JOB = 'datasources.sweep';
export const MAX_SYNC_RETRIES = 2;

/** Twice the job lock lifetime, at least two minutes: a live run beats far more often. */
export const staleAfterMs = (ctx: AppContext) => Math.max(120_000, 2 * ctx.config.JOB_LOCK_LIFETIME_MS);

export interface SweepReport {
  retried: string[];
  failed: string[];
  releasedClaims: string[];
}

export async function performSyncSweep(ctx: AppContext, opts: { staleAfterMs?: number; maxRetries?: number } = {}): Promise<SweepReport> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - (opts.staleAfterMs ?? staleAfterMs(ctx)));
  const maxRetries = opts.maxRetries ?? MAX_SYNC_RETRIES;
  const report: SweepReport = { retried: [], failed: [], releasedClaims: [] };
  const stuck = await DataSourceModel.find({ state: 'syncing', $or: [{ syncHeartbeatAt: trusted({ $lt: cutoff }) }, { syncHeartbeatAt: null }] }).lean<DataSource[]>();
  for (const ds of stuck) {
    if (ds.syncRetries < maxRetries) {
      // The stale run's packs stay: it may be alive past its last heartbeat and commit them. The
      // next commit removes them if it never does (knowledge/store.ts removeRunsBetween).
      const run = ds.syncRun + 1;
      const res = await DataSourceModel.updateOne(
        { _id: ds._id, syncRun: ds.syncRun, state: 'syncing' },
        { $set: { syncRun: run, syncHeartbeatAt: now, syncStartedAt: now }, $inc: { syncRetries: 1 } },
      );
      if (!res.modifiedCount) continue;
      await SyncClaimModel.updateOne({ _id: ds._id }, { $set: { run, createdAt: now } }, { upsert: true });
      await ctx.jobs.now<SyncJobData>(SYNC_JOB, { dataSourceId: ds._id, run });
      ctx.logger.warn({ dataSourceId: ds._id, run }, 'restarted a sync that stopped making progress');
      report.retried.push(ds._id);
    } else {
      const minutes = Math.round((now.getTime() - new Date(ds.syncHeartbeatAt ?? ds.syncStartedAt ?? now).getTime()) / 60_000);
      const reason = `sync interrupted: no progress for ${minutes} minutes after ${ds.syncRetries} restarts`;
      if (await failSync(ctx, ds, ds.syncRun, reason)) report.failed.push(ds._id);
    }
  }
  const claims = await SyncClaimModel.find({ createdAt: trusted({ $lt: cutoff }) }).lean();
  for (const claim of claims) {
    const ds = await DataSourceModel.findById(claim._id, { state: 1 }).lean();
    if (ds?.state === 'syncing') continue;
    await SyncClaimModel.deleteOne({ _id: claim._id, run: claim.run });
    report.releasedClaims.push(claim._id);
  }
  return report;
}
