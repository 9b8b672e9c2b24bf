// datasources.sync: re-processes the rows whose content the live knowledge does not hold yet
// (content hash), chunks and counts them, commits the new knowledge and ends the run. Idempotent:
// a run that is no longer the data source's current one stops at its next heartbeat, and a second
// runner of the same run (FerretDB can hand one job to two runners) gives way at the commit.
import type { AppContext } from '../context.ts';
import { commitKnowledge, discardRun, KnowledgeSuperseded, readCommitted, removeKnowledge, rowsToEmbed, type Manifest, type RowChunks } from '../knowledge/store.ts';
import { embedderFor, EmbeddingPipeline } from '../knowledge/embeddings.ts';
import { PackWriter } from '../knowledge/packWriter.ts';
import { chunkMarkdown } from './chunking.ts';
import { unpackContent } from './content.ts';
import { DataSourceModel, RowContentModel, type DataSource, type RowContent } from './model.ts';
import { consumeChanges, pendingChanges, rowsToRead, settledEntries } from './changes.ts';
import { findOwned } from '../db/byId.ts';
import { pagesById } from '../db/pagesById.ts';
import { mapLimit } from './rows.ts';
import { completeSync, failSync, type SyncJobData, type SyncResults } from './sync.ts';

const BEAT_EVERY_ROWS = 500;
/** Contents per read of a full sync: each read is short, so none pins the embedded database's WAL. */
const SCAN_PAGE_ROWS = 1000;
/** Embedding requests between heartbeats (a heartbeat is a database write). */
const BEAT_EVERY_BATCHES = 16;

/** How long a job waits for its start's update of the source to land: 20 reads, 50 ms apart. */
const START_UPDATE_READS = 20;
const START_UPDATE_WAIT_MS = 50;

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
    const read = () => DataSourceModel.findById(data.dataSourceId).lean<DataSource>();
    let ds = await read();
    // The start enqueues this job beside its update of the source (sync.ts): a job picked up at
    // once can see the run before it, which is no stale job. Bounded: an update that failed ends it.
    for (let i = 0; ds && ds.syncRun === data.run - 1 && i < START_UPDATE_READS; i++) {
      await new Promise((r) => setTimeout(r, START_UPDATE_WAIT_MS));
      ds = await read();
    }
    if (!ds || ds.syncRun !== data.run || ds.state !== 'syncing') return 'stale';
    const beat = async () => {
      // updateOne, not findOneAndUpdate with a projection: FerretDB v1 rejects `fields` on findAndModify.
      const alive = await DataSourceModel.updateOne({ _id: ds._id, syncRun: data.run, state: 'syncing' }, { $set: { syncHeartbeatAt: ctx.clock.now() } });
      if (!alive.matchedCount) throw new SyncSuperseded();
      await hooks.touch?.();
    };
    try {
      const { results, syncedAt, entryIds } = await runSync(ctx, ds, data.run, beat);
      if (await completeSync(ctx, ds, data.run, results, syncedAt)) {
        // Left behind on failure, the entries only make the next sync look at those rows again.
        await consumeChanges(entryIds).catch((err) => ctx.logger.warn({ err, dataSourceId: ds._id }, 'sync could not clear its change log'));
        return 'done';
      }
      // Deleted while we committed: the knowledge we just wrote must not outlive its source.
      if (!(await DataSourceModel.exists({ _id: ds._id }))) await removeKnowledge(ds._id);
      return 'stale';
    } catch (err) {
      if (err instanceof SyncSuperseded || err instanceof KnowledgeSuperseded) {
        // Its packs are garbage once the newer run commits; what it wrote after that commit's cleanup goes here.
        await discardRun(ds._id, data.run);
        return 'stale';
      }
      if ((err as { code?: number })?.code === 11000) return 'stale';
      ctx.logger.error({ err, dataSourceId: ds._id, run: data.run }, 'sync failed');
      await failSync(ctx, ds, data.run, `sync failed: ${(err as Error)?.message ?? 'unknown error'}`);
      return 'failed';
    }
  } finally {
    running.delete(key);
  }
}

/**
 * Yields the contents to learn and adds every row the source holds now to `live`. With a short
 * change log only the logged rows are read (by `_id`); otherwise every content (they carry their
 * hash), in pages by `_id`, the next read while this one is chunked. The pages are not one snapshot
 * (a long read would pin the embedded database's WAL): a row written during the scan may be read
 * before or after its write, or missed if added behind the scan. Its write logged it first, after
 * runSync read the log, so the entry stays and the next sync reads that row again.
 */
async function* changedContents(ds: DataSource, previous: Manifest, rowIds: string[] | null, live: Set<string>): AsyncGenerator<RowContent> {
  const learned = (c: RowContent) => previous.rows[c._id]?.h === c.hash;
  if (!rowIds) {
    for await (const batch of pagesById<RowContent>(RowContentModel.collection, { dataSourceId: ds._id }, SCAN_PAGE_ROWS)) {
      for (const c of batch) {
        live.add(c._id);
        if (!learned(c)) yield c;
      }
    }
    return;
  }
  const found = await mapLimit(rowIds, 16, (id) => findOwned<RowContent>(RowContentModel, id, { dataSourceId: ds._id }));
  const gone = new Set(rowIds.filter((_, i) => !found[i]));
  for (const id of Object.keys(previous.rows)) if (!gone.has(id)) live.add(id);
  for (const c of found) {
    if (!c) continue;
    live.add(c._id);
    if (!learned(c)) yield c;
  }
}

async function runSync(ctx: AppContext, ds: DataSource, run: number, beat: () => Promise<void>): Promise<{ results: SyncResults; syncedAt: Date; entryIds: string[] }> {
  const previous = await readCommitted(ds._id);
  // The log is read before the rows: a write logged after this is looked at again by the next sync.
  const changes = await pendingChanges(ds, previous);
  const rowIds = rowsToRead(changes, previous);
  await beat();
  // Each pack is written as soon as its rows are chunked (and embedded), beside the reading of the
  // next ones: the commit then waits for the last pack alone.
  const packs = new PackWriter(ds._id, run);
  const { processed, reembedded, liveRowIds, totalTokens } = await learnRows(ctx, ds, previous, rowIds, packs, beat);
  // One time for the data source's lastSync and the rows it learned, so they read the same.
  const syncedAt = ctx.clock.now();
  const { manifest, totalDocuments } = await commitKnowledge({ botId: ds.botId, dataSourceId: ds._id, run, previous, processed, reembedded, written: packs, liveRowIds, now: syncedAt });
  const entryIds = settledEntries(changes, (rowId) => manifest.rows[rowId]?.h, syncedAt.getTime());
  const results = {
    totalTokens,
    modifiedRows: processed.length,
    totalDocuments,
    unmodifiedRows: liveRowIds.length - processed.length,
    totalDataSourceRows: liveRowIds.length,
  };
  return { results, syncedAt, entryIds };
}

/**
 * Chunks the rows to learn into `packs`. With an embedding model, the changed rows are embedded
 * while the next ones are read, and so are unchanged rows whose vectors are missing or from another
 * model (a changed EMBEDDING_MODEL): until this commits, the live knowledge answers from BM25 alone.
 * A provider error fails the sync with its reason. On any error, nothing is left writing.
 */
async function learnRows(ctx: AppContext, ds: DataSource, previous: Manifest, rowIds: string[] | null, packs: PackWriter, beat: () => Promise<void>) {
  const embedder = embedderFor(ctx.config);
  let batches = 0;
  const embedding = embedder
    ? new EmbeddingPipeline(embedder, {
        afterBatch: async () => {
          if (++batches % BEAT_EVERY_BATCHES === 0) await beat();
        },
        onEmbedded: (group) => packs.add(group),
        timeoutMs: ctx.config.EMBEDDING_TIMEOUT_MS,
      })
    : null;
  const live = new Set<string>();
  const processed: RowChunks[] = [];
  let totalTokens = 0;
  try {
    for await (const content of changedContents(ds, previous, rowIds, live)) {
      const chunks = chunkMarkdown(unpackContent(content.data));
      for (const c of chunks) totalTokens += c.tokens;
      const group = { rowId: content._id, hash: content.hash, chunks };
      processed.push(group);
      if (embedding) await embedding.add(group);
      else packs.add(group);
      if (processed.length % BEAT_EVERY_ROWS === 0) await beat();
    }
    const liveRowIds = [...live];
    await beat();
    let reembedded: RowChunks[] = [];
    if (embedding) {
      reembedded = await rowsToEmbed(previous, liveRowIds, new Set(processed.map((r) => r.rowId)), embedder!.model);
      for (const group of reembedded) await embedding.add(group);
      await embedding.finish();
    }
    return { processed, reembedded, liveRowIds, totalTokens };
  } catch (err) {
    await embedding?.stop();
    await packs.stop();
    throw err;
  }
}
