// Starting and ending a sync (spec "States and transitions › Data source state"). Start is one
// winner per data source (claim by unique insert), refuses up front when the team's storage tokens
// cannot cover the estimate, and returns at once: the work runs in the sync job.
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { effectiveLimits } from '../platform/presenters.ts';
import { getBot, getTeam } from '../platform/service.ts';
import { TeamModel } from '../platform/model.ts';
import { insertedOnce } from '../db/insertNew.ts';
import { pagesById } from '../db/pagesById.ts';
import { syncs, tokensUsed } from '../observability/metrics.ts';
import { committedState, discardRun, readCommitted } from '../knowledge/store.ts';
import { estimateTokens } from './content.ts';
import { DataSourceModel, DataSourceRowModel, SyncClaimModel, type DataSource, type DataSourceRow } from './model.ts';
import { changesIn, readChangeLog } from './changes.ts';
import { getDataSource } from './service.ts';

import { SYNC_JOB, type SyncJobData } from './jobNames.ts';

export { SYNC_JOB, type SyncJobData } from './jobNames.ts';
export type SyncTrigger = 'api' | 'hook' | 'interval' | 'sweeper';

export interface SyncResults {
  totalTokens: number;
  modifiedRows: number;
  totalDocuments: number;
  unmodifiedRows: number;
  totalDataSourceRows: number;
}

/**
 * Storage tokens the next sync is expected to use: ~4 bytes per token over rows not yet learned.
 * With a complete change log it reads the segment and the log, in parallel, and no manifest (a
 * large source's is megabytes: 61 ms of a sync start at 3,000 rows; docs/BENCHMARKS.md, issue 17).
 */
export async function estimateSyncTokens(ds: Pick<DataSource, '_id' | 'rowLog'>): Promise<{ tokens: number; modifiedRows: number }> {
  const [learned, log] = await Promise.all([committedState(ds._id), readChangeLog(ds._id, { sizesOnly: true })]);
  // A complete change log holds each changed row's size: no row is read (changes.ts). A row written
  // back to what was learned is counted too; the charge itself comes from the sync's real count.
  const changes = changesIn(ds, learned, log);
  if (changes.complete) {
    const written = [...changes.rows.values()].filter((bytes) => bytes > 0);
    return { tokens: written.reduce((n, bytes) => n + estimateTokens(bytes), 0), modifiedRows: written.length };
  }
  const manifest = await readCommitted(ds._id);
  let tokens = 0;
  let modifiedRows = 0;
  // In pages, as the sync reads them: one read of a large source would hold the embedded database's WAL.
  for await (const rows of pagesById<DataSourceRow>(DataSourceRowModel.collection, { dataSourceId: ds._id }, 5000, { contentHash: 1, bytes: 1 })) {
    for (const row of rows) {
      if (manifest.rows[row._id]?.h === row.contentHash) continue;
      modifiedRows++;
      tokens += estimateTokens(row.bytes);
    }
  }
  return { tokens, modifiedRows };
}

async function checkStorageBudget(ctx: AppContext, ds: DataSource): Promise<void> {
  // Read together: a start waits for one round trip instead of three (team, segment, change log).
  const [team, { tokens }] = await Promise.all([getTeam(ds.teamId), estimateSyncTokens(ds)]);
  const remaining = effectiveLimits(team, ctx.planLimits).storageTokens - (team.usage?.storageTokens ?? 0);
  if (remaining <= 0) throw new AppError('storage_tokens_exhausted', 'The team has no storage tokens left');
  if (tokens > remaining) {
    throw new AppError('storage_tokens_exhausted', 'This sync would use more storage tokens than the team has left', { estimatedTokens: tokens, remainingTokens: remaining });
  }
}

export async function startSync(ctx: AppContext, input: { botId: string; dataSourceId: string; trigger: SyncTrigger }): Promise<number> {
  const ds = await getDataSource(input.botId, input.dataSourceId);
  if (ds.state === 'syncing') throw new AppError('already_syncing', 'The data source is already syncing');
  const now = ctx.clock.now();
  const run = ds.syncRun + 1;
  // The claim is made beside the budget's reads (one round trip fewer) and given back if the budget
  // refuses; the budget's answer comes first, as when it was checked before the claim.
  const [budget, claimed] = await Promise.allSettled([checkStorageBudget(ctx, ds), insertedOnce(SyncClaimModel.create({ _id: ds._id, run, createdAt: now }))]);
  if (budget.status === 'rejected') {
    if (claimed.status === 'fulfilled' && claimed.value) await SyncClaimModel.deleteOne({ _id: ds._id, run });
    throw budget.reason;
  }
  if (claimed.status === 'rejected') throw claimed.reason;
  if (!claimed.value) throw new AppError('already_syncing', 'The data source is already syncing');
  // The won run's state and its job are written together (one wait fewer): a job picked up at once
  // may read the source before this update lands, and waits for it (sync.job.ts); a job whose
  // source is gone ends `stale`. If the enqueue is lost (crash), the heartbeat goes stale and the
  // sweeper restarts the run.
  const [res] = await Promise.all([
    DataSourceModel.updateOne(
      { _id: ds._id, botId: input.botId },
      { $set: { state: 'syncing', syncRun: run, syncStartedAt: now, syncHeartbeatAt: now, syncRetries: 0, syncTrigger: input.trigger, lastError: null } },
    ),
    ctx.jobs.now<SyncJobData>(SYNC_JOB, { dataSourceId: ds._id, run }),
  ]);
  if (!res.matchedCount) {
    await SyncClaimModel.deleteOne({ _id: ds._id, run });
    throw new AppError('data_source_not_found', 'Data source not found');
  }
  syncs.inc({ outcome: 'started' });
  return run;
}

async function botName(botId: string): Promise<string> {
  return getBot(botId).then((b) => b.name, () => '');
}

export async function completeSync(ctx: AppContext, ds: DataSource, run: number, results: SyncResults, now: Date): Promise<boolean> {
  // Charged before the state changes, so whoever sees `synced` also sees what it cost; a run that
  // was superseded or whose source is gone gives the tokens back.
  const charge = (tokens: number) => TeamModel.updateOne({ id: ds.teamId }, { $inc: { 'usage.storageTokens': tokens } });
  if (results.totalTokens > 0) await charge(results.totalTokens);
  const updated = await DataSourceModel.findOneAndUpdate(
    { _id: ds._id, syncRun: run },
    { $set: { state: 'synced', lastSync: now, lastResults: results, syncHeartbeatAt: null, lastError: null } },
    { returnDocument: 'after' },
  ).lean<DataSource>();
  if (!updated) {
    if (results.totalTokens > 0) await charge(-results.totalTokens);
    return false;
  }
  // Counted as soon as the state's write returns, before anything else is awaited.
  if (results.totalTokens > 0) tokensUsed.inc({ kind: 'storage' }, results.totalTokens);
  syncs.inc({ outcome: 'success' });
  await SyncClaimModel.deleteOne({ _id: ds._id, run });
  await ctx.events.emit({
    type: 'sync.success',
    teamId: ds.teamId,
    botId: ds.botId,
    dataSourceId: ds._id,
    payload: { success: true, results, bot: await botName(ds.botId), dataSource: updated.name },
  });
  return true;
}

export async function failSync(ctx: AppContext, ds: DataSource, run: number, reason: string): Promise<boolean> {
  // Its own run only, and only once a newer run committed (else the next commit removes it): a newer
  // run that superseded this one is writing packs of a higher run.
  await discardRun(ds._id, run);
  const updated = await DataSourceModel.findOneAndUpdate(
    { _id: ds._id, syncRun: run },
    { $set: { state: 'sync_error', lastError: reason, syncHeartbeatAt: null } },
    { returnDocument: 'after' },
  ).lean<DataSource>();
  // Counted as soon as the state's write returns, before anything else is awaited.
  if (updated) syncs.inc({ outcome: 'failure' });
  await SyncClaimModel.deleteOne({ _id: ds._id, run });
  if (!updated) return false;
  await ctx.events.emit({
    type: 'sync.failure',
    teamId: ds.teamId,
    botId: ds.botId,
    dataSourceId: ds._id,
    payload: { success: false, reason, bot: await botName(ds.botId), dataSource: updated.name },
  });
  return true;
}
