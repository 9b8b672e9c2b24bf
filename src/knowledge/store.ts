// Writing and reading a data source's stored knowledge (see model.ts for the layout).
// Commit order: new packs, new manifest, then the segment switch (the commit point), then old
// packs nobody references any more are deleted. A crash before the switch leaves only unreferenced
// documents of an uncommitted run, which discardUncommitted removes.
import { randomUUID } from 'node:crypto';
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';
import { KnowledgeManifestModel, KnowledgePackModel, KnowledgeSegmentModel } from './model.ts';
import { BotModel } from '../platform/model.ts';
import { trusted } from '../db/connection.ts';
import { dequantise, quantise } from './vectorCodec.ts';

export interface StoredChunk {
  heading: string | null;
  text: string;
  tokens: number;
}
/** One row's chunks inside a pack, for one content hash. */
export interface RowChunks {
  rowId: string;
  hash: string;
  chunks: StoredChunk[];
  /** The chunks' vectors (chunk i at i × dims) when an embedding model is configured (knowledge/embeddings.ts). */
  embedding?: { model: string; vectors: Float32Array };
}
export interface ManifestRow {
  /** content hash learned */
  h: string;
  /** synced at (epoch ms) */
  t: number;
  /** pack id */
  p: string;
  /** chunk count */
  n: number;
  /** embedding model of the row's vectors, if it has them */
  e?: string;
}
export interface Manifest {
  run: number;
  /** Committed by a sync that follows the rows' change log (datasources/changes.ts). */
  tracked?: boolean;
  rows: Record<string, ManifestRow>;
  /** pack id → chunks it holds (live or not), for compaction */
  packs: Record<string, number>;
}

/** Chunks per pack: a pack is one `_id` read when a process loads the index. */
const PACK_CHUNKS = 500;
/** A pack whose live share falls below this is rewritten by the next sync. */
const COMPACT_BELOW = 0.5;

const encode = (value: unknown) => deflateRawSync(Buffer.from(JSON.stringify(value)), { level: constants.Z_BEST_SPEED });
const decode = <T>(data: Buffer | { buffer: Uint8Array }): T =>
  JSON.parse(inflateRawSync(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer)).toString('utf8')) as T;

export const emptyManifest = (): Manifest => ({ run: 0, rows: {}, packs: {} });

/**
 * The committed row states of a source for reading one row's: a large source's manifest is
 * megabytes, and a written manifest never changes (a commit writes a new one under a new id), so
 * the decoded ones are kept by id. Read-only: callers must not change what it returns.
 */
const stateCache = new Map<string, Readonly<Manifest>>();
const STATE_CACHE_SIZE = 4;
export async function readCommittedStates(dataSourceId: string): Promise<Readonly<Manifest>> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId, { manifestId: 1 }).lean();
  if (!segment) return emptyManifest();
  const id = String(segment.manifestId);
  let manifest = stateCache.get(id);
  if (!manifest) {
    const doc = await KnowledgeManifestModel.findById(segment.manifestId).lean();
    if (!doc) return emptyManifest();
    manifest = decode<Manifest>(doc.data);
    stateCache.set(id, manifest);
    if (stateCache.size > STATE_CACHE_SIZE) stateCache.delete(stateCache.keys().next().value!);
  }
  return manifest;
}

/**
 * The committed run and whether its manifest follows the change log, from the segment alone. A
 * segment committed before it held `tracked` has its manifest read (once per manifest: cached).
 */
export async function committedState(dataSourceId: string): Promise<Pick<Manifest, 'run' | 'tracked'>> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId, { run: 1, tracked: 1 }).lean();
  if (!segment) return { run: 0 };
  if (typeof segment.tracked === 'boolean') return { run: segment.run, tracked: segment.tracked };
  const manifest = await readCommittedStates(dataSourceId);
  return { run: manifest.run, tracked: manifest.tracked };
}

export async function readCommitted(dataSourceId: string): Promise<Manifest> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId).lean();
  if (!segment) return emptyManifest();
  const doc = await KnowledgeManifestModel.findById(segment.manifestId).lean();
  return doc ? decode<Manifest>(doc.data) : emptyManifest();
}

/** A group as stored: the vectors live apart, in the pack's vector fields (model.ts). */
type StoredGroup = Omit<RowChunks, 'embedding'> & { embedding?: { model: string; floats: number } };

const bytesOf = (data: Buffer | { buffer: Uint8Array }) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer));
/** Copied out into an aligned array: a typed array view needs a byte offset that is a multiple of its element size. */
function aligned<T extends Float32Array | Int16Array>(raw: Buffer, Type: { new (length: number): T; BYTES_PER_ELEMENT: number }): T {
  const out = new Type(Math.floor(raw.byteLength / Type.BYTES_PER_ELEMENT));
  new Uint8Array(out.buffer).set(raw.subarray(0, out.byteLength));
  return out;
}

export async function readPack(packId: string): Promise<RowChunks[]> {
  const doc = await KnowledgePackModel.findById(packId).lean();
  if (!doc) return [];
  const groups = decode<StoredGroup[]>(doc.data);
  if (doc.vectors16 && doc.vectorScales) {
    const codes = aligned(bytesOf(doc.vectors16 as unknown as Buffer), Int16Array);
    const scales = aligned(bytesOf(doc.vectorScales as unknown as Buffer), Float32Array);
    let [at, vector] = [0, 0];
    return groups.map(({ embedding, ...group }) => {
      const count = group.chunks.length;
      if (!embedding || at + embedding.floats > codes.length || vector + count > scales.length) return group;
      const vectors = dequantise(codes.subarray(at, (at += embedding.floats)), scales.subarray(vector, (vector += count)));
      return { ...group, embedding: { model: embedding.model, vectors } };
    });
  }
  // Packs written before 2026-11-27 hold raw Float32 in `vectors`; read as they are, re-encoded when
  // a sync rewrites their pack (compaction) or re-embeds their rows.
  const floats = doc.vectors ? aligned(bytesOf(doc.vectors as unknown as Buffer), Float32Array) : new Float32Array(0);
  let at = 0;
  return groups.map(({ embedding, ...group }) => {
    if (!embedding || at + embedding.floats > floats.length) return group;
    const vectors = floats.subarray(at, (at += embedding.floats));
    return { ...group, embedding: { model: embedding.model, vectors } };
  });
}

const asBuffer = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** A pack document: the groups deflated, their vectors apart as bytes and scales (vectorCodec.ts; neither deflates). */
function packDocument(id: string, dataSourceId: string, run: number, batch: RowChunks[]) {
  const codes: Int16Array[] = [];
  const scales: Float32Array[] = [];
  const stored: StoredGroup[] = batch.map(({ rowId, hash, chunks, embedding }) => {
    // A block that is not whole vectors is left out: the row is embedded again by the next sync.
    if (!embedding || !chunks.length || embedding.vectors.length % chunks.length) return { rowId, hash, chunks };
    const encoded = quantise(embedding.vectors, embedding.vectors.length / chunks.length);
    codes.push(encoded.codes);
    scales.push(encoded.scales);
    return { rowId, hash, chunks, embedding: { model: embedding.model, floats: embedding.vectors.length } };
  });
  const doc: { _id: string; dataSourceId: string; run: number; data: Buffer; vectors16?: Buffer; vectorScales?: Buffer } = { _id: id, dataSourceId, run, data: encode(stored) };
  if (codes.length) {
    doc.vectors16 = Buffer.concat(codes.map(asBuffer));
    doc.vectorScales = Buffer.concat(scales.map(asBuffer));
  }
  return { doc, embedded: new Set(stored.filter((g) => g.embedding).map((g) => g.rowId)) };
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
  /** Every row of the data source now; rows missing here leave the knowledge. */
  liveRowIds: Iterable<string>;
  now: Date;
}

export async function commitKnowledge(input: CommitInput): Promise<{ manifest: Manifest; totalDocuments: number }> {
  const { previous, dataSourceId, run } = input;
  const now = input.now.getTime();
  const fresh = new Map(input.processed.map((r) => [r.rowId, r]));
  const reembedded = (input.reembedded ?? []).filter((r) => !fresh.has(r.rowId) && previous.rows[r.rowId]);
  for (const r of reembedded) fresh.set(r.rowId, r);
  const kept: Record<string, ManifestRow> = {};
  for (const rowId of input.liveRowIds) if (!fresh.has(rowId) && previous.rows[rowId]) kept[rowId] = previous.rows[rowId]!;

  const relocated = await relocateFromSparsePacks(previous, kept);
  const groups: Array<RowChunks & { t: number }> = [
    ...input.processed.map((r) => ({ ...r, t: now })),
    ...reembedded.map((r) => ({ ...r, t: previous.rows[r.rowId]!.t })),
    ...relocated,
  ];
  const rows: Record<string, ManifestRow> = { ...kept };
  const packs: Record<string, number> = {};
  for (const entry of Object.values(kept)) packs[entry.p] = previous.packs[entry.p] ?? entry.n;

  const docs: Array<ReturnType<typeof packDocument>['doc']> = [];
  let batch: RowChunks[] = [];
  let size = 0;
  const flush = () => {
    if (!batch.length) return;
    const id = `${dataSourceId}:${run}:${docs.length}`;
    // The vectors go in the same insert as their chunks: no second pass over the packs.
    const { doc, embedded } = packDocument(id, dataSourceId, run, batch);
    for (const g of batch) {
      rows[g.rowId] = { h: g.hash, t: (g as RowChunks & { t: number }).t, p: id, n: g.chunks.length };
      if (embedded.has(g.rowId)) rows[g.rowId]!.e = g.embedding!.model;
    }
    packs[id] = size;
    docs.push(doc);
    batch = [];
    size = 0;
  };
  for (const group of groups) {
    if (size && size + group.chunks.length > PACK_CHUNKS) flush();
    batch.push(group);
    size += group.chunks.length;
  }
  flush();
  for (let i = 0; i < docs.length; i += 8) await KnowledgePackModel.collection.insertMany(docs.slice(i, i + 8) as never[], { ordered: true });

  const manifest: Manifest = { run, tracked: true, rows, packs };
  const manifestId = `${dataSourceId}:${run}`;
  await KnowledgeManifestModel.collection.insertOne({ _id: manifestId, dataSourceId, run, data: encode(manifest) } as never);
  const totalDocuments = Object.values(rows).reduce((n, r) => n + r.n, 0);
  await KnowledgeSegmentModel.replaceOne({ _id: dataSourceId }, { botId: input.botId, run, manifestId, totalDocuments, tracked: manifest.tracked }, { upsert: true });
  await stampKnowledge(input.botId);

  // Garbage: the previous manifest and packs the new manifest no longer references.
  if (previous.run) await KnowledgeManifestModel.deleteOne({ _id: `${dataSourceId}:${previous.run}` });
  for (const packId of Object.keys(previous.packs)) if (!(packId in packs)) await KnowledgePackModel.deleteOne({ _id: packId });
  return { manifest, totalDocuments };
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

/** Removes documents of runs after the committed one (a failed or interrupted sync). */
export async function discardUncommitted(dataSourceId: string): Promise<void> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId).lean();
  const committed = segment?.run ?? 0;
  await KnowledgePackModel.deleteMany({ dataSourceId, run: trusted({ $gt: committed }) });
  await KnowledgeManifestModel.deleteMany({ dataSourceId, run: trusted({ $gt: committed }) });
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
  await KnowledgePackModel.deleteMany({ dataSourceId });
  await KnowledgeManifestModel.deleteMany({ dataSourceId });
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
