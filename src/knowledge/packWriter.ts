// Writing a sync's packs as their rows are ready, not all at its commit: the database stores one
// pack while the sync chunks (and embeds) the next rows, so the commit waits for the last pack
// only (docs/BENCHMARKS.md, issue 18). Packs carry the run in their id and field, so packs of a run
// that never commits are found and removed (store.ts: the next commit, discardRun).
import { deflateRawSync, constants } from 'node:zlib';
import { KnowledgePackModel } from './model.ts';
import { pack12, type StoredVectors } from './vectorCodec.ts';

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
  /**
   * The chunks' vectors (chunk i at i × dims) when an embedding model is configured, as stored: 12-bit
   * integers and a scale per chunk (vectorCodec.ts), as a sync's embedding thread quantised them
   * (knowledge/embeddings.ts) or as read from a pack. Never decoded to Float32: the segment and the
   * pack writer both want the integers.
   */
  embedding?: { model: string; stored: StoredVectors };
}

/** Chunks per pack: a pack is one `_id` read when a process loads the index. */
export const PACK_CHUNKS = 500;

export const encode = (value: unknown) => deflateRawSync(Buffer.from(JSON.stringify(value)), { level: constants.Z_BEST_SPEED });

/** A group as stored: the vectors live apart, in the pack's vector fields (model.ts). */
export type StoredGroup = Omit<RowChunks, 'embedding'> & { embedding?: { model: string; floats: number } };

const asBuffer = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** A pack document: the groups deflated, their vectors apart as 12-bit integers and scales (vectorCodec.ts; neither deflates). */
function packDocument(id: string, dataSourceId: string, run: number, batch: RowChunks[]) {
  const codes: Int16Array[] = [];
  const scales: Float32Array[] = [];
  let floats = 0;
  const stored: StoredGroup[] = batch.map(({ rowId, hash, chunks, embedding }) => {
    // A row of no chunks keeps its model too, or every sync (and a worker's start) would embed it again.
    if (embedding && !chunks.length) return { rowId, hash, chunks, embedding: { model: embedding.model, floats: 0 } };
    const encoded = embedding ? storedForm(embedding, chunks.length) : null;
    if (!encoded) return { rowId, hash, chunks };
    codes.push(encoded.codes);
    floats += encoded.codes.length;
    scales.push(encoded.scales);
    return { rowId, hash, chunks, embedding: { model: embedding!.model, floats: encoded.codes.length } };
  });
  const doc: { _id: string; dataSourceId: string; run: number; data: Buffer; vectors12?: Buffer; vectorScales?: Buffer } = { _id: id, dataSourceId, run, data: encode(stored) };
  if (codes.length) {
    const all = new Int16Array(floats);
    let at = 0;
    for (const c of codes) {
      all.set(c, at);
      at += c.length;
    }
    doc.vectors12 = asBuffer(pack12(all));
    doc.vectorScales = Buffer.concat(scales.map(asBuffer));
  }
  return { doc, stored };
}

/** A group's vectors if they are whole (one per chunk); else left out and the row is embedded again by the next sync. */
function storedForm(embedding: NonNullable<RowChunks['embedding']>, count: number): StoredVectors | null {
  const { stored } = embedding;
  return stored.scales.length === count && stored.codes.length % count === 0 ? stored : null;
}

/** Where a written row's chunks are: its manifest entry but the synced time (store.ts ManifestRow). */
export interface WrittenRow {
  h: string;
  p: string;
  n: number;
  e?: string;
}

/**
 * Packs row groups in the order given and inserts each full pack at once, one insert at a time
 * (with every pack that filled up meanwhile), while the caller goes on. `add` never waits; an
 * insert's error (a duplicate `_id` when a second runner of the same run got there first) is
 * thrown by the next `add` and by `finish`.
 */
export class PackWriter {
  readonly rows = new Map<string, WrittenRow>();
  /** pack id → chunks it holds */
  readonly packs: Record<string, number> = {};
  private batch: RowChunks[] = [];
  private size = 0;
  private count = 0;
  private writing: Promise<void> = Promise.resolve();
  private queued: Array<ReturnType<typeof packDocument>['doc']> = [];
  private failed: { err: unknown } | null = null;

  constructor(
    private readonly dataSourceId: string,
    private readonly run: number,
  ) {}

  add(group: RowChunks): void {
    if (this.failed) throw this.failed.err;
    if (this.size && this.size + group.chunks.length > PACK_CHUNKS) this.flush();
    this.batch.push(group);
    this.size += group.chunks.length;
  }

  /** Writes the last pack and waits for every insert. */
  async finish(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.failed) throw this.failed.err;
  }

  /** Writes nothing more and waits for the insert under way, if any. */
  async stop(): Promise<void> {
    this.failed ??= { err: new Error('pack writer stopped') };
    await this.writing;
  }

  private async insertQueued(): Promise<void> {
    const docs = this.queued.splice(0);
    if (this.failed || !docs.length) return;
    await KnowledgePackModel.collection.insertMany(docs as never[], { ordered: true }).catch((err: unknown) => void (this.failed ??= { err }));
  }

  private flush(): void {
    if (!this.batch.length) return;
    const id = `${this.dataSourceId}:${this.run}:${this.count++}`;
    const { doc, stored } = packDocument(id, this.dataSourceId, this.run, this.batch);
    for (const g of stored) this.rows.set(g.rowId, { h: g.hash, p: id, n: g.chunks.length, ...(g.embedding ? { e: g.embedding.model } : {}) });
    this.packs[id] = this.size;
    this.batch = [];
    this.size = 0;
    // Packs that filled up while an insert was under way go together in the next one, so a
    // database slower than the chunking gets fewer, larger inserts.
    this.queued.push(doc);
    if (this.queued.length === 1) this.writing = this.writing.then(() => this.insertQueued());
  }
}
