// The bot's knowledge: synced chunks of data-source rows and the retrieval query over them.
// Contract used by chat: searchKnowledge returns the best chunks of the bot's *synced* content.
// Each process keeps one BM25 segment per data source in memory, keyed by the live sync run, and
// the bot's segment list keyed by the bot's knowledge stamp (platform/model.ts), which every commit
// and removal changes: a caller that read the bot passes its stamp, and the list is read again only
// when the stamp moved on, so a deleted data source or a finished re-sync is seen at the next
// question in every process without a database read per question. Without a stamp the list is read.
import { Bm25Segment, searchSegments, type ScoredChunk } from './bm25.ts';
import { hybridSearch } from './fusion.ts';
import type { Embedder } from './embeddings.ts';
import { joinVectors } from './vectors.ts';
import type { Logger } from '../observability/logger.ts';
import { KnowledgeSegmentModel } from './model.ts';
import { readCommitted, readPack } from './store.ts';

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

const loaded = new Map<string, Bm25Segment>();
/** Data sources this process holds segments for, per bot, so vanished ones are evicted. */
const heldByBot = new Map<string, Set<string>>();
const loading = new Map<string, Promise<Bm25Segment>>();

async function buildSegment(dataSourceId: string): Promise<Bm25Segment> {
  const manifest = await readCommitted(dataSourceId);
  const segment = new Bm25Segment(dataSourceId, manifest.run);
  const vectorBlocks: Parameters<typeof joinVectors>[0] = [];
  const packIds = [...new Set(Object.values(manifest.rows).map((r) => r.p))].sort();
  for (const packId of packIds) {
    for (const group of await readPack(packId)) {
      const entry = manifest.rows[group.rowId];
      // A pack may still hold chunks of an older version of a row; only the manifest's hash counts.
      if (!entry || entry.p !== packId || entry.h !== group.hash) continue;
      group.chunks.forEach((c, i) =>
        segment.add({ chunkId: `${group.rowId}:${group.hash.slice(0, 8)}:${i}`, rowId: group.rowId, heading: c.heading, text: c.text }),
      );
      const { embedding } = group;
      vectorBlocks.push(embedding ? { model: embedding.model, vectors: embedding.vectors, chunks: group.chunks.length } : null);
    }
  }
  segment.vectors = joinVectors(vectorBlocks);
  segment.compact();
  return segment;
}

async function segmentFor(dataSourceId: string, run: number): Promise<Bm25Segment> {
  const current = loaded.get(dataSourceId);
  if (current && current.run === run) return current;
  const key = `${dataSourceId}:${run}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = buildSegment(dataSourceId).finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  const segment = await pending;
  const latest = loaded.get(dataSourceId);
  if (!latest || latest.run < segment.run) loaded.set(dataSourceId, segment);
  return segment;
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
  return Promise.all(listed.map((s) => segmentFor(s._id, s.run)));
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

const toHit = (h: ScoredChunk): KnowledgeHit => ({ chunkId: h.chunkId, text: h.text, heading: h.heading, score: h.score, rowId: h.rowId, dataSourceId: h.dataSourceId });

/** Forgets a data source's in-memory segment (its stored knowledge is removed by the caller). */
export function forgetSegment(dataSourceId: string): void {
  loaded.delete(dataSourceId);
}
