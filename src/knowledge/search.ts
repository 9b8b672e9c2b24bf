// Searching a bot's segments (bm25.ts): BM25F over every segment with the statistics summed over
// them, each chunk's row score added, a share of the best score among its row's other candidates,
// one chunk per section, and the hits' texts read last, for the hits only.
import { DEFAULT_RETRIEVER, type Bm25Segment, type ChunkRef, type IndexedChunk } from './bm25.ts';
import { terms } from './terms.ts';
import { TopK } from './topK.ts';

export interface ScoredChunk extends IndexedChunk {
  dataSourceId: string;
  score: number;
}
/** A hit whose text is still in its segment (`withTexts` reads it). */
export interface ScoredRef extends ChunkRef {
  dataSourceId: string;
  score: number;
  segment: Bm25Segment;
  doc: number;
}

/**
 * The hits with their texts, read from their segments' text stores: only the hits' blocks are
 * inflated, in chunk order, so hits that share a block (a row's chunks) inflate it once.
 */
export function withTexts(hits: ScoredRef[]): ScoredChunk[] {
  const segments = new Map<Bm25Segment, number>();
  for (const hit of hits) if (!segments.has(hit.segment)) segments.set(hit.segment, segments.size);
  const texts = new Map<ScoredRef, string>();
  for (const hit of [...hits].sort((a, b) => segments.get(a.segment)! - segments.get(b.segment)! || a.doc - b.doc)) texts.set(hit, hit.segment.text(hit.doc));
  return hits.map((hit) => ({ chunkId: hit.chunkId, rowId: hit.rowId, heading: hit.heading, text: texts.get(hit)!, dataSourceId: hit.dataSourceId, score: hit.score }));
}

export function searchSegments(segments: Bm25Segment[], query: string, limit: number): ScoredChunk[] {
  return withTexts(searchRefs(segments, query, limit));
}

/** searchSegments without the texts: what hybrid search fuses before it keeps `limit` hits. */
export function searchRefs(segments: Bm25Segment[], query: string, limit: number): ScoredRef[] {
  const options = segments[0]?.options ?? DEFAULT_RETRIEVER;
  const queryTerms = [...new Set(terms(query, { splitIdentifiers: options.splitIdentifiers }))];
  const total = segments.reduce((n, s) => n + s.size, 0);
  if (!queryTerms.length || total === 0) return [];
  // Keep a few times `limit` candidates, so that one chunk per section still leaves `limit` hits,
  // and enough of them that a row's other good chunks are among them.
  const ranked = shareRowScores(rank(segments, queryTerms, limit * 4), options.rowShare);
  // A section's chunks say one thing: the best one stands for it, so the passages differ.
  const seen = new Set<string>();
  const out: ScoredRef[] = [];
  for (const { section, ...hit } of ranked) {
    if (out.length === limit) break;
    if (options.onePerSection && seen.has(section)) continue;
    seen.add(section);
    out.push(hit);
  }
  return out;
}

type Candidate = ScoredRef & { section: string };

/**
 * Adds `share` of the best score among each candidate's row's other candidates, best first again:
 * among the candidates only, since only their order changes (measured the same as over every chunk).
 */
function shareRowScores(candidates: Candidate[], share: number): Candidate[] {
  if (!share) return candidates;
  const best = new Map<string, [number, number]>();
  for (const c of candidates) {
    const key = `${c.dataSourceId}\n${c.rowId}`;
    const top = best.get(key);
    if (!top) best.set(key, [c.score, 0]);
    else if (c.score > top[0]) best.set(key, [c.score, top[0]]);
    else if (c.score > top[1]) top[1] = c.score;
  }
  return candidates
    .map((c) => {
      const [first, second] = best.get(`${c.dataSourceId}\n${c.rowId}`)!;
      return { ...c, score: c.score + share * (c.score === first ? second : first) };
    })
    .sort(byScore);
}

/** The best `k` chunks for the query's terms, best first. */
function rank(segments: Bm25Segment[], queryTerms: string[], k: number): Candidate[] {
  const options = segments[0]!.options;
  const total = segments.reduce((n, s) => n + s.size, 0);
  const average = {
    heading: segments.reduce((n, s) => n + s.totalHeadingLength, 0) / total || 1,
    body: segments.reduce((n, s) => n + s.totalBodyLength, 0) / total || 1,
  };
  const perSegment = segments.map((s) => s.scores());
  const top = new TopK(k);
  try {
    for (const term of queryTerms) {
      const df = segments.reduce((n, s) => n + s.documentFrequency(term), 0);
      if (!df) continue;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      segments.forEach((s, i) => s.accumulate(term, idf, average, perSegment[i]!));
    }
    if (options.rowWeight) {
      const rowTotal = segments.reduce((n, s) => n + s.rowCount, 0);
      const averageLength = segments.reduce((n, s) => n + s.totalLength, 0) / rowTotal || 1;
      const rowScores = segments.map((s) => new Float64Array(s.rowSlots));
      for (const term of queryTerms) {
        const df = segments.reduce((n, s) => n + s.rowFrequency(term), 0);
        if (!df) continue;
        const idf = Math.log(1 + (rowTotal - df + 0.5) / (df + 0.5));
        segments.forEach((s, i) => s.accumulateRows(term, idf, averageLength, rowScores[i]!));
      }
      segments.forEach((s, i) => s.addRowScores(perSegment[i]!, rowScores[i]!, options.rowWeight));
    }
    perSegment.forEach((scores, i) => {
      for (const doc of scores.touched) if (scores.values[doc]! > top.floor) top.push(scores.values[doc]!, i, doc);
    });
  } finally {
    for (const scores of perSegment) scores.release();
  }
  return top
    .sorted()
    .map(([score, i, doc]) => ({ ...segments[i]!.chunkRef(doc), dataSourceId: segments[i]!.dataSourceId, score, segment: segments[i]!, doc, section: `${i}:${segments[i]!.section(doc)}` }))
    .sort(byScore);
}

const byScore = (a: ScoredRef, b: ScoredRef) => b.score - a.score || a.chunkId.localeCompare(b.chunkId);
