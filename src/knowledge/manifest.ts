// A source's committed manifest as stored: a header document (`${dataSourceId}:${run}`: run, tracked,
// packs, bucket count) and the row states split into buckets by a hash of the row id, each its own
// document (`${manifestId}:${k}`), so one row's state is one small `_id` read instead of the whole
// manifest (0.3 s CPU to decode at 100,000 rows). All of them carry
// the run, so the commit cleanup, discardRun and removeKnowledge (store.ts) remove buckets with headers.
import { inflateRawSync } from 'node:zlib';
import { KnowledgeManifestModel, KnowledgeSegmentModel } from './model.ts';
import { trusted } from '../db/connection.ts';
import { encode } from './packWriter.ts';

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
  tracked: boolean;
  rows: Record<string, ManifestRow>;
  /** pack id → chunks it holds (live or not), for compaction */
  packs: Record<string, number>;
  /** Buckets its rows are stored in (0 for the empty manifest of a source never committed). */
  buckets: number;
}
/** The header document's content: the manifest less its rows, which are in the buckets. */
type Header = Omit<Manifest, 'rows'>;
type Rows = Record<string, ManifestRow>;
/**
 * A bucket as stored: its rows' states in columns, `e` only when some row has vectors. Cheaper than an
 * object per row both ways (100,000 rows: encode 269 ms CPU vs 347-385, decode 169 vs 242).
 */
interface Columns {
  ids: string[];
  h: string[];
  t: number[];
  p: string[];
  n: number[];
  e?: Array<string | null>;
}
function toColumns(ids: string[], rows: Rows): Columns {
  const entries = ids.map((id) => rows[id]!);
  const columns: Columns = { ids, h: entries.map((r) => r.h), t: entries.map((r) => r.t), p: entries.map((r) => r.p), n: entries.map((r) => r.n) };
  if (entries.some((r) => r.e)) columns.e = entries.map((r) => r.e ?? null);
  return columns;
}
/**
 * The rows of a bucket added to `into`. A pack id or a model name repeats across rows, but each
 * decoded bucket holds its own copy per row: `shared` gives every row one copy per distinct value,
 * so a whole manifest read keeps ~200 pack id strings alive, not 100,000, through a sync's young
 * collections (measured at full size).
 */
function addColumns(columns: Columns, into: Rows, shared = new Map<string, string>()): Rows {
  const { ids, h, t, p, n, e } = columns;
  const one = (value: string) => {
    const kept = shared.get(value);
    if (kept !== undefined) return kept;
    shared.set(value, value);
    return value;
  };
  for (let i = 0; i < ids.length; i++) {
    const row: ManifestRow = { h: h[i]!, t: t[i]!, p: one(p[i]!), n: n[i]! };
    if (e?.[i]) row.e = one(e[i]!);
    into[ids[i]!] = row;
  }
  return into;
}

/** Rows per bucket: a get decodes one bucket (~35 KB deflated, ~1 ms CPU). */
export const BUCKET_ROWS = 1000;

export const emptyManifest = (): Manifest => ({ run: 0, tracked: false, rows: {}, packs: {}, buckets: 0 });
export const bucketCount = (rows: number) => Math.max(1, Math.ceil(rows / BUCKET_ROWS));
const bucketIds = (manifestId: string, buckets: number) => Array.from({ length: buckets }, (_, k) => `${manifestId}:${k}`);

/** FNV-1a of the row id: stable across processes and releases (a stored bucket depends on it). */
export function bucketOf(rowId: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < rowId.length; i++) hash = Math.imul(hash ^ rowId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % buckets;
}

const decode = <T>(data: Buffer | { buffer: Uint8Array }): T =>
  JSON.parse(inflateRawSync(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer)).toString('utf8')) as T;

/**
 * Writes the buckets, then the header; the caller's segment switch commits them. Returns the header
 * id. `after` is the run's pack inserts: the documents are encoded while those go on (the sync's
 * main thread is otherwise idle then), and written only once they are done, so a manifest never
 * names a pack that is not stored.
 */
export async function writeManifest(dataSourceId: string, manifest: Manifest, after: Promise<void> = Promise.resolve()): Promise<string> {
  const { run, rows, buckets, ...head } = manifest;
  const manifestId = `${dataSourceId}:${run}`;
  let docs: Array<{ _id: string; dataSourceId: string; run: number; data: Buffer }>;
  try {
    const split: string[][] = Array.from({ length: buckets }, () => []);
    for (const rowId in rows) split[bucketOf(rowId, buckets)]!.push(rowId);
    docs = split.map((ids, k) => ({ _id: `${manifestId}:${k}`, dataSourceId, run, data: encode(toColumns(ids, rows)) }));
    docs.push({ _id: manifestId, dataSourceId, run, data: encode({ ...head, run, buckets }) });
  } finally {
    await after;
  }
  const header = docs.pop()!;
  await KnowledgeManifestModel.collection.insertMany(docs as never[], { ordered: true });
  await KnowledgeManifestModel.collection.insertOne(header as never);
  return manifestId;
}

/** Garbage collection of a manifest no segment references any more: its header and buckets. */
export async function deleteManifest(dataSourceId: string, manifest: Pick<Manifest, 'run' | 'buckets'>): Promise<void> {
  const manifestId = `${dataSourceId}:${manifest.run}`;
  await KnowledgeManifestModel.deleteMany({ _id: trusted({ $in: [manifestId, ...bucketIds(manifestId, manifest.buckets)] }) });
}

/**
 * The committed manifest whole (a sync, compaction, retrieval loading): a fresh copy the caller may
 * change. A commit that lands meanwhile deletes the buckets being read: read its manifest instead.
 */
export async function readCommitted(dataSourceId: string): Promise<Manifest> {
  for (let attempt = 1; ; attempt++) {
    const segment = await KnowledgeSegmentModel.findById(dataSourceId, { manifestId: 1 }).lean();
    if (!segment) return emptyManifest();
    const doc = await KnowledgeManifestModel.findById(segment.manifestId).lean();
    if (!doc) return emptyManifest();
    const stored = decode<Header>(doc.data);
    const rows: Rows = {};
    const shared = new Map<string, string>();
    let found = 0;
    const ids = bucketIds(segment.manifestId, stored.buckets);
    for await (const bucket of KnowledgeManifestModel.collection.find({ _id: trusted({ $in: ids }) } as never)) {
      addColumns(decode<Columns>(bucket.data), rows, shared);
      found++;
    }
    if (found === stored.buckets) return { ...stored, rows };
    if (attempt === 3) throw new Error(`knowledge manifest ${segment.manifestId} lacks ${stored.buckets - found} of its buckets`);
  }
}

/**
 * Decoded documents by id, shared by concurrent readers: a stored document never changes (a commit
 * writes new ones under new ids). Read-only: callers must not change what they get.
 */
class Decoded<T> {
  private readonly entries = new Map<string, Promise<T>>();
  constructor(private readonly size: number) {}
  get(id: string, read: () => Promise<T>): Promise<T> {
    let entry = this.entries.get(id);
    if (entry) this.entries.delete(id); // re-inserted below: the least recently used goes first
    else entry = read().catch((err: unknown) => (this.entries.delete(id), Promise.reject(err)));
    this.entries.set(id, entry);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
  forget(id: string): void {
    this.entries.delete(id);
  }
}
/** Buckets (~150 KB decoded). */
const bucketCache = new Decoded<Rows | null>(64);
const readDoc = async <T>(id: string, otherwise: T): Promise<T> => {
  const doc = await KnowledgeManifestModel.findById(id).lean();
  return doc ? decode<T>(doc.data) : otherwise;
};
const readBucket = async (id: string) => {
  const columns = await readDoc<Columns | null>(id, null);
  return columns && addColumns(columns, {});
};

/** The committed header of a source, or null. */
export async function readHeader(dataSourceId: string): Promise<Header | null> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId, { manifestId: 1 }).lean();
  return segment ? readDoc<Header | null>(segment.manifestId, null) : null;
}

/**
 * One row's committed state: the segment and the row's bucket, each an `_id` read (a bucket cached).
 * A bucket gone was collected after a newer commit: the segment is read again.
 */
export async function readCommittedRow(dataSourceId: string, rowId: string, retry = true): Promise<Readonly<ManifestRow> | undefined> {
  const segment = await KnowledgeSegmentModel.findById(dataSourceId, { manifestId: 1, buckets: 1 }).lean();
  if (!segment) return undefined;
  const id = `${segment.manifestId}:${bucketOf(rowId, segment.buckets)}`;
  const bucket = await bucketCache.get(id, () => readBucket(id));
  if (bucket) return bucket[rowId];
  bucketCache.forget(id);
  return retry ? readCommittedRow(dataSourceId, rowId, false) : undefined;
}
