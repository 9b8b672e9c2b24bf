// datasources.sync: re-processes the rows whose content the live knowledge does not hold yet
// (content hash), chunks and counts them, commits the new knowledge and ends the run. Idempotent:
// a run that is no longer the data source's current one stops at its next heartbeat, and a second
// runner of the same run (FerretDB can hand one job to two runners) gives way at the commit.
import type { AppContext } from '../context.ts';
import { commitKnowledge, readCommitted, removeKnowledge, type RowChunks } from '../knowledge/store.ts';
import { chunkMarkdown } from './chunking.ts';
import { unpackContent } from './content.ts';
import { DataSourceModel, DataSourceRowModel, RowContentModel, type DataSource, type RowContent } from './model.ts';
import { findOwned } from '../db/byId.ts';
import { mapLimit } from './rows.ts';
import { completeSync, failSync, type SyncJobData, type SyncResults } from './sync.ts';

/** Above this share of changed rows one scan of the contents beats one `_id` read per row. */
const SCAN_ABOVE_SHARE = 0.2;
const BEAT_EVERY_ROWS = 500;

class SyncSuperseded extends Error {}

export interface SyncRunHooks {
  /** Extends the job's lock (Agenda `job.touch`). */
  touch?: () => Promise<void>;
}

const running = new Set<string>();

export async function performSync(ctx: AppContext, data: SyncJobData, hooks: SyncRunHooks = {}): Promise<'done' | 'failed' | 'stale'> {
  const key = `${data.dataSourceId}:${data.run}`;
  if (running.has(key)) return 'stale';
  running.add(key);
  try {
    const ds = await DataSourceModel.findById(data.dataSourceId).lean<DataSource>();
    if (!ds || ds.syncRun !== data.run || ds.state !== 'syncing') return 'stale';
    const beat = async () => {
      // updateOne, not findOneAndUpdate with a projection: FerretDB v1 rejects `fields` on findAndModify.
      const alive = await DataSourceModel.updateOne({ _id: ds._id, syncRun: data.run, state: 'syncing' }, { $set: { syncHeartbeatAt: ctx.clock.now() } });
      if (!alive.matchedCount) throw new SyncSuperseded();
      await hooks.touch?.();
    };
    try {
      const { results, syncedAt } = await runSync(ctx, ds, data.run, beat);
      if (await completeSync(ctx, ds, data.run, results, syncedAt)) return 'done';
      // Deleted while we committed: the knowledge we just wrote must not outlive its source.
      if (!(await DataSourceModel.exists({ _id: ds._id }))) await removeKnowledge(ds._id);
      return 'stale';
    } catch (err) {
      if (err instanceof SyncSuperseded || (err as { code?: number })?.code === 11000) return 'stale';
      ctx.logger.error({ err, dataSourceId: ds._id, run: data.run }, 'sync failed');
      await failSync(ctx, ds, data.run, `sync failed: ${(err as Error)?.message ?? 'unknown error'}`);
      return 'failed';
    }
  } finally {
    running.delete(key);
  }
}

async function loadChangedContents(ds: DataSource, changed: Set<string>, total: number) {
  if (changed.size > total * SCAN_ABOVE_SHARE) {
    const all = await RowContentModel.find({ dataSourceId: ds._id }).lean();
    return all.filter((c) => changed.has(c._id));
  }
  const found = await mapLimit([...changed], 16, (id) => findOwned<RowContent>(RowContentModel, id, { dataSourceId: ds._id }));
  return found.filter((c) => c !== null);
}

async function runSync(ctx: AppContext, ds: DataSource, run: number, beat: () => Promise<void>): Promise<{ results: SyncResults; syncedAt: Date }> {
  const [previous, rows] = await Promise.all([
    readCommitted(ds._id),
    DataSourceRowModel.find({ dataSourceId: ds._id }, { _id: 1, contentHash: 1 }).lean(),
  ]);
  const changed = new Set(rows.filter((r) => previous.rows[r._id]?.h !== r.contentHash).map((r) => r._id));
  await beat();
  const contents = await loadChangedContents(ds, changed, rows.length);
  const processed: RowChunks[] = [];
  let totalTokens = 0;
  for (const [i, content] of contents.entries()) {
    const chunks = chunkMarkdown(unpackContent(content.data));
    for (const c of chunks) totalTokens += c.tokens;
    processed.push({ rowId: content._id, hash: content.hash, chunks });
    if ((i + 1) % BEAT_EVERY_ROWS === 0) await beat();
  }
  // Rows deleted while we read them are neither learned nor kept.
  const present = new Set(contents.map((c) => c._id));
  const liveRowIds = rows.filter((r) => !changed.has(r._id) || present.has(r._id)).map((r) => r._id);
  await beat();
  // One time for the data source's lastSync and the rows it learned, so they read the same.
  const syncedAt = ctx.clock.now();
  const { totalDocuments } = await commitKnowledge({ botId: ds.botId, dataSourceId: ds._id, run, previous, processed, liveRowIds, now: syncedAt });
  const results = {
    totalTokens,
    modifiedRows: processed.length,
    totalDocuments,
    unmodifiedRows: liveRowIds.length - processed.length,
    totalDataSourceRows: liveRowIds.length,
  };
  return { results, syncedAt };
}
