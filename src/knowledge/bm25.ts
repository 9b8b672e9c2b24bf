// An in-memory BM25 segment per data source, rebuilt from the stored packs when that source's
// live manifest changes. Statistics (N, df, average length) are summed over the bot's segments at
// query time, so a segment never depends on another and updates stay per data source.
import { terms } from './terms.ts';

export interface IndexedChunk {
  chunkId: string;
  rowId: string;
  heading: string | null;
  text: string;
}

const K1 = 1.2;
const B = 0.75;

export class Bm25Segment {
  readonly chunks: IndexedChunk[] = [];
  private readonly lengths: number[] = [];
  totalLength = 0;
  /** term → flat [chunkIndex, termFrequency, ...] */
  private readonly postings = new Map<string, number[]>();

  constructor(
    readonly dataSourceId: string,
    readonly run: number,
  ) {}

  add(chunk: IndexedChunk): void {
    const index = this.chunks.length;
    this.chunks.push(chunk);
    const words = terms(chunk.heading ? `${chunk.heading}\n${chunk.text}` : chunk.text);
    this.lengths.push(words.length);
    this.totalLength += words.length;
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [term, count] of tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push(index, count);
    }
  }

  get size(): number {
    return this.chunks.length;
  }

  documentFrequency(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 2;
  }

  /** Adds this segment's contribution for one query term to `scores` (indexed by chunk). */
  accumulate(term: string, idf: number, averageLength: number, scores: Map<number, number>): void {
    const list = this.postings.get(term);
    if (!list) return;
    for (let i = 0; i < list.length; i += 2) {
      const doc = list[i]!;
      const tf = list[i + 1]!;
      const norm = tf + K1 * (1 - B + (B * this.lengths[doc]!) / averageLength);
      scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
    }
  }
}

export interface ScoredChunk extends IndexedChunk {
  dataSourceId: string;
  score: number;
}

export function searchSegments(segments: Bm25Segment[], query: string, limit: number): ScoredChunk[] {
  const queryTerms = [...new Set(terms(query))];
  const total = segments.reduce((n, s) => n + s.size, 0);
  if (!queryTerms.length || total === 0) return [];
  const averageLength = segments.reduce((n, s) => n + s.totalLength, 0) / total || 1;
  const perSegment = segments.map(() => new Map<number, number>());
  for (const term of queryTerms) {
    const df = segments.reduce((n, s) => n + s.documentFrequency(term), 0);
    if (!df) continue;
    const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
    segments.forEach((s, i) => s.accumulate(term, idf, averageLength, perSegment[i]!));
  }
  const hits: ScoredChunk[] = [];
  let floor = 0;
  segments.forEach((segment, i) => {
    for (const [doc, score] of perSegment[i]!) {
      if (score <= 0 || (hits.length >= limit && score <= floor)) continue;
      hits.push({ ...segment.chunks[doc]!, dataSourceId: segment.dataSourceId, score });
      if (hits.length > limit * 4) {
        hits.sort((a, b) => b.score - a.score).length = limit;
        floor = hits[limit - 1]!.score;
      }
    }
  });
  return hits.sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId)).slice(0, limit);
}
