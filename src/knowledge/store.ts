// Writing and reading a data source's stored knowledge (see model.ts for the layout).
// Commit order: new packs, new manifest (its buckets, then its header: manifest.ts), then the
// segment switch (the commit point, only from the manifest it was built on), then the old manifest
// and the old packs nobody references any more are deleted. A crash before the switch leaves only
// unreferenced documents of an uncommitted run (buckets included), which the next commit removes.
import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { KnowledgeManifestModel, KnowledgePackModel, KnowledgeSegmentModel, type KnowledgeSegment } from './model.ts';
import { BotModel } from '../platform/model.ts';
import { trusted } from '../db/connection.ts';
import { unpack12, type StoredVectors } from './vectorCodec.ts';
import { PackWriter, type RowChunks, type StoredGroup } from './packWriter.ts';
import { bucketCount, deleteManifest, readCommitted, readHeader, writeManifest, type Manifest, type ManifestRow } from './manifest.ts';

export type { RowChunks } from './packWriter.ts';
export { emptyManifest, readCommitted, type Manifest, type ManifestRow } from './manifest.ts';

/** A pack whose live share falls below this is rewritten by the next sync. */
const COMPACT_BELOW = 0.5;

const decode = <T>(data: Buffer | { buffer: Uint8Array }): T =>
  JSON.parse(inflateRawSync(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer)).toString('utf8')) as T;

/** The committed run and whether its manifest follows the change log, from the segment alone. */
export async function committedState(dataSourceId: string): Promise<Pick<Manifest, 'run' | 'tracked'>> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId, { run: 1, tracked: 1 }).lean();
  return segment ? { run: segment.run, tracked: segment.tracked } : { run: 0, tracked: false };
}

const bytesOf = (data: Buffer | { buffer: Uint8Array }) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer));
/** Copied out into an aligned array: a typed array view needs a byte offset that is a multiple of its element size. */
function aligned<T extends Float32Array | Int16Array>(raw: Buffer, Type: { new (length: number): T; BYTES_PER_ELEMENT: number }): T {
  const out = new Type(Math.floor(raw.byteLength / Type.BYTES_PER_ELEMENT));
  new Uint8Array(out.buffer).set(raw.subarray(0, out.byteLength));
  return out;
}

/**
 * A pack's row groups, each with its vectors as views into the pack's 12-bit integers and scales:
 * no Float32 copy is made (a segment joins the integers as they are). A group whose vectors are not
 * whole (a model that changed dimensions) comes back without them, so its row is embedded again.
 */
export async function readPack(packId: string): Promise<RowChunks[]> {
  const doc = await KnowledgePackModel.findById(packId).lean();
  if (!doc) return [];
  const groups = decode<StoredGroup[]>(doc.data);
  const total = groups.reduce((n, g) => n + (g.embedding?.floats ?? 0), 0);
  const scales = doc.vectorScales ? aligned(bytesOf(doc.vectorScales as unknown as Buffer), Float32Array) : null;
  const codes = doc.vectors12 && scales ? unpack12(bytesOf(doc.vectors12 as unknown as Buffer), total) : new Int16Array(0);
  let [at, vector] = [0, 0];
  return groups.map(({ embedding, ...group }) => {
    const count = group.chunks.length;
    if (!embedding || at + embedding.floats > codes.length || (scales && vector + count > scales.length)) return group;
    const floats = codes.subarray(at, (at += embedding.floats));
    const part = scales ? scales.subarray(vector, (vector += count)) : null;
    if (!count) return { ...group, embedding: { model: embedding.model, stored: { codes: new Int16Array(0), scales: new Float32Array(0) } } };
    if (embedding.floats % count) return group;
    return { ...group, embedding: { model: embedding.model, stored: { codes: floats, scales: part! } } };
  });
}

export interface CommitInput {
  botId: string;
  dataSourceId: string;
  run: number;
  previous: Manifest;
  /** Rows re-processed by this run. */
  processed: RowChunks[];
  /** Unchanged rows given vectors of the current embedding model by this run (their synced time stays). */
  reembedded?: RowChunks[];
  /**
   * The run's writer when the sync already gave it the processed and re-embedded rows as they were
   * ready (packWriter.ts); without it, they are packed and written here.
   */
  written?: PackWriter;
  /** Every row of the data source now; rows missing here leave the knowledge. */
  liveRowIds: Iterable<string>;
  now: Date;
}

/**
 * Thrown by a commit that lost its segment switch to a run at least as new (a superseded run): it
 * deleted nothing of what the segment holds, and its own manifest is gone (its packs: discardRun).
 */
export class KnowledgeSuperseded extends Error {}

/** Switches after a commit of an older run only this often (each rebuilds on the newer manifest). */
const COMMIT_ATTEMPTS = 3;

export async function commitKnowledge(input: CommitInput): Promise<{ manifest: Manifest; totalDocuments: number }> {
  const { dataSourceId, run } = input;
  const writer = input.written ?? new PackWriter(dataSourceId, run);
  if (!input.written) for (const group of [...input.processed, ...(input.reembedded ?? [])]) writer.add(group);
  let previous = input.previous;
  for (let attempt = 1; ; attempt++) {
    const { manifest, totalDocuments, packsWritten } = await nextManifest(input, previous, writer);
    const manifestId = await writeManifest(dataSourceId, manifest, packsWritten);
    const { buckets, tracked } = manifest;
    if (await switchSegment(dataSourceId, previous.run, { botId: input.botId, run, manifestId, totalDocuments, tracked, buckets })) {
      await stampKnowledge(input.botId);
      // Garbage: the previous manifest (its buckets too) and packs the new manifest no longer references.
      if (previous.run) await deleteManifest(dataSourceId, previous);
      for (const packId of Object.keys(previous.packs)) if (!(packId in manifest.packs)) await KnowledgePackModel.deleteOne({ _id: packId });
      await removeRunsBetween(dataSourceId, previous.run, run);
      return { manifest, totalDocuments };
    }
    await deleteManifest(dataSourceId, manifest);
    const holder = (await KnowledgeSegmentModel.findById(dataSourceId, { run: 1 }).lean())?.run ?? 0;
    if (holder >= run || attempt === COMMIT_ATTEMPTS) throw new KnowledgeSuperseded(`knowledge of ${dataSourceId} moved to run ${holder} during the commit of run ${run}`);
    // An older run (superseded, yet past its last heartbeat) committed meanwhile and collected the
    // manifest this one was built on: build on its manifest instead.
    previous = await readCommitted(dataSourceId);
    // A segment whose manifest is gone (a commit never collects the live one): a run built on
    // nothing learned every row, so it may replace it.
    if (!previous.run && !input.previous.run) previous = { ...previous, run: holder };
  }
}

/**
 * The commit point: the segment moves only from the manifest the commit was built on, so neither a
 * superseded run overwrites a newer one nor a commit keeps rows in packs another commit collected.
 * Conditional updates are atomic on MongoDB and on the patched FerretDB (docs/FERRETDB.md).
 */
async function switchSegment(dataSourceId: string, from: number, segment: Omit<KnowledgeSegment, '_id'>): Promise<boolean> {
  if (from) return (await KnowledgeSegmentModel.replaceOne({ _id: dataSourceId, run: from }, segment)).matchedCount === 1;
  try {
    await KnowledgeSegmentModel.collection.insertOne({ _id: dataSourceId, ...segment } as never);
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return false;
    throw err;
  }
}

/**
 * The manifest of `previous`'s kept rows and the run's written ones (relocations added to `writer`),
 * and the writer's last inserts, still under way: the manifest is built and encoded beside them.
 */
async function nextManifest(input: CommitInput, previous: Manifest, writer: PackWriter) {
  const now = input.now.getTime();
  /** Synced time of each row this run writes: now for processed rows, as before for the others. */
  const syncedAt = new Map(input.processed.map((r) => [r.rowId, now]));
  const reembedded = (input.reembedded ?? []).filter((r) => !syncedAt.has(r.rowId) && previous.rows[r.rowId]);
  for (const r of reembedded) syncedAt.set(r.rowId, previous.rows[r.rowId]!.t);
  const kept: Record<string, ManifestRow> = {};
  for (const rowId of input.liveRowIds) {
    const entry = syncedAt.has(rowId) ? undefined : previous.rows[rowId];
    if (entry) kept[rowId] = entry;
  }
  for (const group of await relocateFromSparsePacks(previous, kept)) {
    syncedAt.set(group.rowId, group.t);
    writer.add(group);
  }
  // finish() packs the last rows before it first waits, so the writer's rows and packs are whole now.
  const packsWritten = writer.finish();
  const packs: Record<string, number> = { ...writer.packs };
  let [count, totalDocuments] = [0, 0];
  for (const entry of Object.values(kept)) {
    packs[entry.p] = previous.packs[entry.p] ?? entry.n;
    count++;
    totalDocuments += entry.n;
  }
  // The kept rows (less those relocation moved) plus the written ones: not copied, it is 100,000 rows at scale.
  const rows = kept;
  for (const [rowId, entry] of writer.rows) {
    const t = syncedAt.get(rowId);
    if (t === undefined) continue;
    rows[rowId] = { ...entry, t };
    count++;
    totalDocuments += entry.n;
  }
  return { manifest: { run: input.run, tracked: true, rows, packs, buckets: bucketCount(count) }, totalDocuments, packsWritten };
}

/** Moves the kept rows of mostly-dead packs into the new run's packs, so dead chunks never pile up. */
async function relocateFromSparsePacks(previous: Manifest, kept: Record<string, ManifestRow>): Promise<Array<RowChunks & { t: number }>> {
  const live = new Map<string, number>();
  for (const entry of Object.values(kept)) live.set(entry.p, (live.get(entry.p) ?? 0) + entry.n);
  const moved: Array<RowChunks & { t: number }> = [];
  for (const [packId, liveChunks] of live) {
    const total = previous.packs[packId] ?? liveChunks;
    if (liveChunks >= total * COMPACT_BELOW) continue;
    for (const group of await readPack(packId)) {
      const entry = kept[group.rowId];
      if (entry && entry.p === packId && entry.h === group.hash) {
        moved.push({ ...group, t: entry.t });
        delete kept[group.rowId];
      }
    }
  }
  return moved;
}

/**
 * A source's packs and manifest documents: their `_id`s all start `${dataSourceId}:`, so a range of
 * the `_id` index finds them (FerretDB v1 reads no secondary index without the patch; docs/FERRETDB.md).
 */
const ofSource = (dataSourceId: string) => ({ _id: trusted({ $gte: `${dataSourceId}:`, $lt: `${dataSourceId};` }), dataSourceId });

/**
 * What runs between the base and the run just committed left behind (a crash, a failure, a run
 * superseded or restarted by the sweeper): none of them ever committed, and none can now, since the
 * segment only moves from a run's base to a newer run. One of them may still be writing; it removes
 * what it writes after this when it finds itself superseded (discardRun).
 */
async function removeRunsBetween(dataSourceId: string, base: number, run: number): Promise<void> {
  if (run <= base + 1) return;
  const between = { ...ofSource(dataSourceId), run: trusted({ $gt: base, $lt: run }) };
  await KnowledgePackModel.deleteMany(between);
  await KnowledgeManifestModel.deleteMany(between);
}

/**
 * Removes what one run (superseded or failed) wrote, once the segment holds a newer run: before, a
 * second runner of the same run (FerretDB can hand a job to two) may still commit it, and the newer
 * run's commit removes it anyway (removeRunsBetween). Packs the live manifest names stay: the run
 * may have committed through that second runner and a newer run kept rows in them.
 */
export async function discardRun(dataSourceId: string, run: number): Promise<void> {
  const header = await readHeader(dataSourceId);
  if (!header || header.run <= run) return;
  const live = header.packs;
  const packs = await KnowledgePackModel.find({ ...ofSource(dataSourceId), run }, { _id: 1 }).lean();
  const dead = packs.map((p) => String(p._id)).filter((id) => !(id in live));
  if (dead.length) await KnowledgePackModel.deleteMany({ _id: trusted({ $in: dead }) });
  await KnowledgeManifestModel.deleteMany({ ...ofSource(dataSourceId), run });
}

/**
 * Tells every process that the bot's segment list changed (service.ts caches it per stamp). Written
 * after the segment, so a process that read the old stamp before the change reads the list again
 * at its next question. A fresh random value, not a counter: two commits at once cannot both
 * leave the same value behind, even where concurrent `$inc`s lose one (docs/FERRETDB.md).
 */
async function stampKnowledge(botId: string): Promise<void> {
  await BotModel.updateOne({ id: botId }, { $set: { knowledgeStamp: randomUUID() } }, { timestamps: false });
}

/** Deleting a data source: the segment goes first, so searches stop using it at once. */
export async function removeKnowledge(dataSourceId: string): Promise<void> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId, { botId: 1 }).lean();
  await KnowledgeSegmentModel.deleteOne({ _id: dataSourceId });
  if (segment) await stampKnowledge(segment.botId);
  await KnowledgePackModel.deleteMany(ofSource(dataSourceId));
  await KnowledgeManifestModel.deleteMany(ofSource(dataSourceId));
}

/** Live rows kept from the previous run whose vectors are missing or from another model, read from their packs. */
export async function rowsToEmbed(previous: Manifest, liveRowIds: Iterable<string>, skip: ReadonlySet<string>, model: string): Promise<RowChunks[]> {
  const byPack = new Map<string, Set<string>>();
  for (const rowId of liveRowIds) {
    const entry = previous.rows[rowId];
    if (!entry || skip.has(rowId) || entry.e === model) continue;
    if (!byPack.has(entry.p)) byPack.set(entry.p, new Set());
    byPack.get(entry.p)!.add(rowId);
  }
  const out: RowChunks[] = [];
  for (const [packId, rowIds] of byPack) {
    for (const group of await readPack(packId)) {
      const entry = previous.rows[group.rowId];
      if (rowIds.has(group.rowId) && entry && entry.p === packId && entry.h === group.hash) out.push({ rowId: group.rowId, hash: group.hash, chunks: group.chunks });
    }
  }
  return out;
}
