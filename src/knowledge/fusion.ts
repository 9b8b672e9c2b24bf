// Hybrid retrieval: BM25 over every segment and vector similarity over the segments whose vectors
// are of the query's model, fused by reciprocal rank fusion, one chunk per section. A vector hit
// counts only at or above the similarity floor: nearest neighbours always exist, and without the
// floor a question unrelated to every chunk would still get passages instead of "I don't know".
import type { Bm25Segment } from './bm25.ts';
import { searchRefs, withTexts, type ScoredChunk, type ScoredRef } from './search.ts';
import { nearestIn } from './vectors.ts';

export function hybridSearch(segments: Bm25Segment[], embedded: Bm25Segment[], query: string, queryVector: Float32Array, limit: number, minSimilarity: number): ScoredChunk[] {
  return withTexts(fuse(searchRefs(segments, query, FUSION_CANDIDATES), nearestChunks(embedded, queryVector, minSimilarity), limit));
}

/** Candidates each ranking brings to the fusion. */
export const FUSION_CANDIDATES = 50;
/** Reciprocal rank fusion's k (Cormack et al. 2009): damps the weight of the very first ranks. */
const RRF_K = 60;

/** The chunks nearest the query at or above the floor, over the segments that hold vectors, one per section, best first. */
function nearestChunks(segments: Bm25Segment[], query: Float32Array, minSimilarity: number): ScoredRef[] {
  // Twice the candidates, so that one chunk per section still leaves enough.
  // A row a newer run changed or removed is still in the previous run's vectors (bm25.ts withoutRows).
  const live = segments.map((s) => (s.maskedChunks ? (doc: number) => s.isLive(doc) : null));
  const nearest = nearestIn(segments.map((s) => s.vectors!), query, 2 * FUSION_CANDIDATES, live);
  const seen = new Set<string>();
  const found: ScoredRef[] = [];
  for (const [i, doc, similarity] of nearest) {
    // Best first: once one is below the floor, the rest are too.
    if (similarity < minSimilarity || found.length === FUSION_CANDIDATES) break;
    const segment = segments[i]!;
    const section = `${i}:${segment.section(doc)}`;
    if (seen.has(section)) continue;
    seen.add(section);
    found.push({ ...segment.chunkRef(doc), dataSourceId: segment.dataSourceId, score: similarity, segment, doc });
  }
  return found;
}

/** Reciprocal rank fusion of the keyword and vector rankings; the score is the fused one. */
function fuse(keyword: ScoredRef[], vector: ScoredRef[], limit: number): ScoredRef[] {
  const fused = new Map<string, ScoredRef>();
  for (const ranking of [keyword, vector]) {
    ranking.forEach((hit, rank) => {
      const key = `${hit.dataSourceId}:${hit.chunkId}`;
      const held = fused.get(key);
      fused.set(key, { ...hit, score: (held?.score ?? 0) + 1 / (RRF_K + rank + 1) });
    });
  }
  // The two rankings may pick different chunks of one section; the better fused one stands for it.
  const sections = new Set<string>();
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId))
    .filter((h) => {
      const section = `${h.dataSourceId}:${h.rowId}:${h.heading ?? ''}`;
      return !sections.has(section) && sections.add(section);
    })
    .slice(0, limit);
}

