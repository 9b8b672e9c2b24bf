// The bot's knowledge: synced chunks of data-source rows and the retrieval query over them.
// Contract used by chat: searchKnowledge returns the best chunks of the bot's *synced* content.
// Each process keeps one BM25 segment per data source in memory, keyed by the live sync run, and
// the bot's segment list keyed by the bot's knowledge stamp (platform/model.ts), which every commit
// and removal changes: a caller that read the bot passes its stamp, and the list is read again only
// when the stamp moved on, so a deleted data source or a finished re-sync is seen at the next
// question in every process without a database read per question. Without a stamp the list is read.
import { Bm25Segment } from './bm25.ts';
import { searchSegments, type ScoredChunk } from './search.ts';
import { hybridSearch } from './fusion.ts';
import type { Embedder } from './embeddings.ts';
import { joinVectors } from './vectors.ts';
import type { Logger } from '../observability/logger.ts';
import { KnowledgeSegmentModel } from './model.ts';
import type { Evidence, Signals } from './search.ts';
import { readCommitted, readPack, type Manifest, type ManifestRow } from './store.ts';

export interface KnowledgeHit {
  chunkId: string;
  /** The chunk's markdown text. */
  text: string;
  /** The heading path of the chunk inside its row ("Setup > Install"), or null. */
  heading: string | null;
  /** Relevance score; higher is better. Only hits with score > 0 are returned. */
  score: number;
  rowId: string;
  dataSourceId: string;
  /** The idf-weighted share of the question's terms the passage holds (0 to 1); keyword hits only. */
  coverage?: number;
  /** The idf-weighted share of the question's terms no chunk of the bot's knowledge holds (0 to 1); keyword hits only. */
  unknown?: number;
  /** Whether the passage lacks a name the question writes ("Kubernetes", "GraphQL"); keyword hits only. */
  missingName?: boolean;
  /** Whether the question writes a name that no chunk of the bot's knowledge holds; keyword hits only. */
  unknownName?: boolean;
  /** The coverage and missing name of the passage the question's own words rank first, when the ranking mixed in character n-grams (search.ts). */
  evidence?: Evidence;
  /** What the grounded answerer weighs to judge whether the documents answer the question (search.ts); keyword hits only. */
  signals?: Signals;
}

export interface SearchOptions {
  /** Maximum hits (default 5). */
  limit?: number;
  /** Hybrid retrieval when set and the bot's knowledge has this model's vectors (docs/CHAT.md). */
  embedder?: Embedder | null;
  /** Where a failed query embedding is reported. */
  logger?: Pick<Logger, 'warn'>;
  /** The bot's `knowledgeStamp` as read before this call; lets the segment list be reused. */
  knowledgeStamp?: string | null;
}

/**
 * A data source's index as this process holds it, for one run: segments as built (`parts`: the
 * first from every row, of this run or an earlier one, then a small one per re-sync of the rows it
 * changed) and what questions read, `segments`: each part with the rows a newer part or this run's
 * manifest replaced masked out. So a re-sync that changed a few rows costs the next question those
 * rows, not the whole source (docs/CHAT.md, "Which segments a question reads").
 */
interface SourceIndex {
  run: number;
  /** The segments as built, oldest first: the first from every row, each next from the rows changed since. */
  parts: Bm25Segment[];
  /** What questions read: each part with the rows a newer part or the manifest replaced masked out. */
  segments: Bm25Segment[];
}
const loaded = new Map<string, SourceIndex>();
/** Data sources this process holds segments for, per bot, so vanished ones are evicted. */
const heldByBot = new Map<string, Set<string>>();
/** One load at a time per data source. */
const loading = new Map<string, Promise<SourceIndex>>();

/** Chunks indexed between two yields of the event loop while a segment is built. */
const YIELD_CHUNKS = 100;
/** A promise whose rejection is handled when awaited later, not reported as unhandled meanwhile. */
const quiet = <T>(p: Promise<T>): Promise<T> => (p.catch(() => undefined), p);

/**
 * Beyond this share of the first part's chunks indexed since it was built (or masked: changed and
 * removed), the source is built whole again.
 */
const DELTA_SHARE = 0.2;
/** Parts held at most: beyond, the newer parts' rows are indexed again as one. */
const MAX_PARTS = 4;

/** What must match for a held row to stand for a manifest's: its content and its vectors' model (a re-embedding keeps the hash). */
const versionOf = (entry: ManifestRow) => (entry.e ? `${entry.h} ${entry.e}` : entry.h);

/** A segment of the manifest's rows (`only` those when given), read pack by pack, compacted. */
async function buildSegment(dataSourceId: string, manifest: Manifest, only?: ReadonlySet<string>): Promise<Bm25Segment> {
  const segment = new Bm25Segment(dataSourceId, manifest.run);
  const vectorBlocks: Parameters<typeof joinVectors>[0] = [];
  const entries = only ? [...only].map((rowId) => manifest.rows[rowId]!) : Object.values(manifest.rows);
  const packIds = [...new Set(entries.map((r) => r.p))].sort();
  // The next pack is read while this one is indexed.
  const read = (k: number) => (k < packIds.length ? quiet(readPack(packIds[k]!)) : null);
  let next = read(0);
  for (let k = 0; k < packIds.length; k++) {
    const packId = packIds[k]!;
    const groups = (await next)!;
    next = read(k + 1);
    let sinceYield = 0;
    for (const group of groups) {
      const entry = manifest.rows[group.rowId];
      // A pack may still hold chunks of an older version of a row; only the manifest's hash counts.
      if (!entry || entry.p !== packId || entry.h !== group.hash || (only && !only.has(group.rowId))) continue;
      segment.addRow(group.rowId, group.hash, group.chunks, versionOf(entry));
      // A row without chunks has no vectors to miss.
      if (group.chunks.length) vectorBlocks.push(group.embedding ?? null);
      // Other requests get the event loop every ~100 chunks (a few ms), not once per pack (500).
      if ((sinceYield += group.chunks.length) >= YIELD_CHUNKS) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  segment.vectors = joinVectors(vectorBlocks);
  segment.compact();
  return segment;
}

/**
 * The previous index read through a newer manifest: each held row whose hash (and vector model) is
 * unchanged stays in its part, the others are masked there, and the rows changed since are indexed
 * into a new part. Null when too much changed since the first part was built, or when the changed
 * rows' vectors do not match the first part's (then hybrid retrieval would differ from a whole build).
 */
async function updatedIndex(dataSourceId: string, parts: Bm25Segment[], manifest: Manifest): Promise<SourceIndex | null> {
  const base = parts[0]!;
  const masked: number[][] = parts.map(() => []);
  // Newest part first: a row a newer part holds is masked in the older ones, and a row held at
  // another version than the manifest's (changed or removed since) is masked where it is. No entry
  // per row is kept but its id in `current`: at 100,000 rows every object kept here outlives young
  // collections and is copied by them (docs/BENCHMARKS.md, "Scale").
  const current = new Set<string>();
  const newer = new Set<string>();
  for (let p = parts.length - 1; p >= 0; p--) {
    for (const [row, rowId, version] of parts[p]!.rowsOf()) {
      if (newer.has(rowId)) {
        masked[p]!.push(row);
        continue;
      }
      if (p > 0) newer.add(rowId);
      const entry = manifest.rows[rowId];
      if (entry && version === versionOf(entry)) current.add(rowId);
      else masked[p]!.push(row);
    }
  }
  const changed = new Set<string>();
  let changedChunks = 0;
  for (const rowId in manifest.rows) {
    const entry = manifest.rows[rowId]!;
    if (!current.has(rowId) && entry.n > 0) {
      changed.add(rowId);
      changedChunks += entry.n;
    }
  }
  const sinceBase = parts.slice(1).reduce((n, part) => n + part.size, changedChunks);
  if (sinceBase > DELTA_SHARE * base.size) return null;
  let kept = parts;
  if (changed.size && parts.length >= MAX_PARTS) {
    // Too many parts: the newer ones' live rows are indexed again with the changed rows, as one part.
    parts.slice(1).forEach((part, i) => {
      const gone = new Set(masked[i + 1]);
      for (const [row, rowId] of part.rowsOf()) if (!gone.has(row)) changed.add(rowId);
    });
    kept = [base];
  }
  const segments = kept.map((part, p) => (masked[p]!.length ? part.withoutRows(manifest.run, masked[p]!) : part));
  // Mostly removed rows: a whole build is smaller than what the parts still hold of them.
  if (segments.reduce((n, s) => n + s.maskedChunks, 0) > DELTA_SHARE * base.size) return null;
  const next = { run: manifest.run, parts: [...kept], segments };
  if (changed.size) {
    const delta = await buildSegment(dataSourceId, manifest, changed);
    if ((delta.vectors?.model ?? null) !== (base.vectors?.model ?? null)) return null;
    next.parts.push(delta);
    next.segments.push(delta);
  }
  // A newer part whose rows all changed again is dropped.
  for (let p = next.parts.length - 1; p > 0; p--) {
    if (next.segments[p]!.size === 0) {
      next.parts.splice(p, 1);
      next.segments.splice(p, 1);
    }
  }
  return next;
}

async function loadIndex(dataSourceId: string): Promise<SourceIndex> {
  const manifest = await readCommitted(dataSourceId);
  const previous = loaded.get(dataSourceId);
  if (previous && previous.run >= manifest.run) return previous;
  let index = previous ? await updatedIndex(dataSourceId, previous.parts, manifest) : null;
  if (!index) {
    // Built whole: the previous index goes first, so the process never holds two whole ones (the
    // questions meanwhile wait for this build, as they would for a cold one).
    if (loaded.get(dataSourceId) === previous) loaded.delete(dataSourceId);
    const base = await buildSegment(dataSourceId, manifest);
    index = { run: manifest.run, parts: [base], segments: [base] };
  }
  const latest = loaded.get(dataSourceId);
  if (!latest || latest.run < index.run) loaded.set(dataSourceId, index);
  return index;
}

/** The data source's segments at `run` or newer, loading what changed since this process last looked. */
async function segmentsFor(dataSourceId: string, run: number): Promise<Bm25Segment[]> {
  for (;;) {
    const current = loaded.get(dataSourceId);
    if (current && current.run >= run) return current.segments;
    let pending = loading.get(dataSourceId);
    const mine = !pending;
    if (!pending) {
      pending = loadIndex(dataSourceId).finally(() => loading.delete(dataSourceId));
      loading.set(dataSourceId, pending);
    }
    const index = await pending;
    // A load that started before this run was committed answers the run before: load again.
    if (mine || index.run >= run) return index.segments;
  }
}

type SegmentList = Array<{ _id: string; run: number }>;
/** Per bot: the segment list read under a knowledge stamp. */
const lists = new Map<string, { stamp: string; readAt: number; listed: SegmentList }>();
/**
 * A listed stamp is trusted this long at most. FerretDB v1 can lose one of two concurrent updates of
 * a document (docs/FERRETDB.md), so an admin edit of the bot racing a commit could put an old stamp
 * back; this bounds how long that rare case could answer from the list before it.
 */
const LIST_MAX_AGE_MS = 30_000;

/** The bot's live segments, loading what changed since this process last looked. */
export async function liveSegments(botId: string, stamp?: string | null): Promise<Bm25Segment[]> {
  const cached = lists.get(botId);
  let listed: SegmentList;
  if (stamp && cached?.stamp === stamp && Date.now() - cached.readAt < LIST_MAX_AGE_MS) listed = cached.listed;
  else {
    const readAt = Date.now();
    listed = await KnowledgeSegmentModel.find({ botId }, { _id: 1, run: 1 }).lean<SegmentList>();
    // Read after the stamp was, so the list is at least as new as the stamp says.
    if (stamp) lists.set(botId, { stamp, readAt, listed });
    const ids = new Set(listed.map((s) => s._id));
    for (const held of heldByBot.get(botId) ?? []) if (!ids.has(held)) loaded.delete(held);
    heldByBot.set(botId, ids);
  }
  return (await Promise.all(listed.map((s) => segmentsFor(s._id, s.run)))).flat();
}

export async function searchKnowledge(botId: string, query: string, opts: SearchOptions = {}): Promise<KnowledgeHit[]> {
  const segments = await liveSegments(botId, opts.knowledgeStamp);
  const limit = opts.limit ?? 5;
  const embedder = opts.embedder;
  const embedded = embedder ? segments.filter((s) => s.vectors?.model === embedder.model) : [];
  if (!embedder || !embedded.length) return searchSegments(segments, query, limit).map(toHit);
  let queryVector: Float32Array;
  try {
    [queryVector] = (await embedder.embed([query])) as [Float32Array];
  } catch (err) {
    opts.logger?.warn({ botId, err: (err as Error).message }, 'query embedding failed; answering from BM25 alone');
    return searchSegments(segments, query, limit).map(toHit);
  }
  return hybridSearch(segments, embedded, query, queryVector, limit, embedder.minSimilarity).map(toHit);
}

const toHit = (h: ScoredChunk): KnowledgeHit => ({ chunkId: h.chunkId, text: h.text, heading: h.heading, score: h.score, rowId: h.rowId, dataSourceId: h.dataSourceId, coverage: h.coverage, unknown: h.unknown, missingName: h.missingName, unknownName: h.unknownName, evidence: h.evidence, signals: h.signals });

/** Forgets a data source's in-memory segment (its stored knowledge is removed by the caller). */
export function forgetSegment(dataSourceId: string): void {
  loaded.delete(dataSourceId);
}
