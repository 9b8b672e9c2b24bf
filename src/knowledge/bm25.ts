// An in-memory BM25 segment per data source, rebuilt from the stored packs when that source's
// live manifest changes. Statistics (N, df, average lengths) are summed over the bot's segments at
// query time, so a segment never depends on another and updates stay per data source.
// Scoring is BM25F: the heading path and the body are two fields, each normalised by its own
// average length and weighted before saturation, so a heading that names the question counts more
// than the same words deep in a body (measured in bench/retrieval.ts; docs/CHAT.md).
import { terms } from './terms.ts';
import { TopK } from './topK.ts';
import type { SegmentVectors } from './vectors.ts';

export interface IndexedChunk {
  chunkId: string;
  rowId: string;
  heading: string | null;
  text: string;
}

/** Retrieval choices; the defaults are what bench/retrieval.ts measured best. */
export interface RetrieverOptions {
  /** Split identifiers (terms.ts) on both sides. */
  splitIdentifiers: boolean;
  /** Weight of the heading field against the body (1); null scores heading + body as one field. */
  headingWeight: number | null;
  /** Return at most one chunk per section (row and heading path): the best one. */
  onePerSection: boolean;
}

export const DEFAULT_RETRIEVER: RetrieverOptions = { splitIdentifiers: true, headingWeight: 3, onePerSection: true };

const K1 = 1.2;
const B = 0.75;

export class Bm25Segment {
  readonly chunks: IndexedChunk[] = [];
  /** Per chunk: heading length, body length. */
  private readonly lengths: number[] = [];
  /** Per chunk: the section it belongs to (same row, same heading path). */
  private readonly sections: number[] = [];
  private readonly sectionIds = new Map<string, number>();
  totalHeadingLength = 0;
  totalBodyLength = 0;
  /** term → flat [chunkIndex, headingTf, bodyTf, ...] */
  private readonly postings = new Map<string, number[]>();
  /** The chunks' vectors, in chunk order, when every chunk has one of the same model. */
  vectors: SegmentVectors | null = null;

  constructor(
    readonly dataSourceId: string,
    readonly run: number,
    readonly options: RetrieverOptions = DEFAULT_RETRIEVER,
  ) {}

  add(chunk: IndexedChunk): void {
    const index = this.chunks.length;
    this.chunks.push(chunk);
    const sectionKey = `${chunk.rowId}\n${chunk.heading ?? ''}`;
    let section = this.sectionIds.get(sectionKey);
    if (section === undefined) this.sectionIds.set(sectionKey, (section = this.sectionIds.size));
    this.sections.push(section);

    const split = { splitIdentifiers: this.options.splitIdentifiers };
    const fielded = this.options.headingWeight !== null;
    const headingWords = fielded && chunk.heading ? terms(chunk.heading, split) : [];
    const bodyWords = terms(!fielded && chunk.heading ? `${chunk.heading}\n${chunk.text}` : chunk.text, split);
    this.lengths.push(headingWords.length, bodyWords.length);
    this.totalHeadingLength += headingWords.length;
    this.totalBodyLength += bodyWords.length;
    const tf = new Map<string, [number, number]>();
    for (const w of headingWords) (tf.get(w) ?? tf.set(w, [0, 0]).get(w)!)[0]++;
    for (const w of bodyWords) (tf.get(w) ?? tf.set(w, [0, 0]).get(w)!)[1]++;
    for (const [term, [inHeading, inBody]] of tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push(index, inHeading, inBody);
    }
  }

  get size(): number {
    return this.chunks.length;
  }

  documentFrequency(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 3;
  }

  /** Adds this segment's contribution for one query term to `scores` (indexed by chunk). */
  accumulate(term: string, idf: number, average: { heading: number; body: number }, scores: Scores): void {
    const list = this.postings.get(term);
    if (!list) return;
    const weight = this.options.headingWeight ?? 0;
    for (let i = 0; i < list.length; i += 3) {
      const doc = list[i]!;
      const inHeading = list[i + 1]!;
      const inBody = list[i + 2]!;
      let tf = inBody / (1 - B + (B * this.lengths[2 * doc + 1]!) / average.body);
      if (inHeading) tf += (weight * inHeading) / (1 - B + (B * this.lengths[2 * doc]!) / average.heading);
      scores.add(doc, (idf * tf * (K1 + 1)) / (K1 + tf));
    }
  }

  private scratch: Scores | null = null;

  /**
   * This segment's score table for one query, reused from query to query (a search runs start to
   * end without awaiting, so no two queries share it); `release` clears what the query touched.
   */
  scores(): Scores {
    if (!this.scratch || this.scratch.values.length < this.chunks.length) this.scratch = new Scores(this.chunks.length);
    return this.scratch;
  }

  section(doc: number): number {
    return this.sections[doc]!;
  }
}

/** Per-query scores: a dense array beats a Map by several times when a common word hits most chunks. */
class Scores {
  readonly values: Float64Array;
  touched: number[] = [];
  constructor(size: number) {
    this.values = new Float64Array(size);
  }
  add(doc: number, score: number): void {
    if (this.values[doc] === 0) this.touched.push(doc);
    this.values[doc]! += score;
  }
  release(): void {
    for (const doc of this.touched) this.values[doc] = 0;
    this.touched = [];
  }
}

export interface ScoredChunk extends IndexedChunk {
  dataSourceId: string;
  score: number;
}

export function searchSegments(segments: Bm25Segment[], query: string, limit: number): ScoredChunk[] {
  const options = segments[0]?.options ?? DEFAULT_RETRIEVER;
  const queryTerms = [...new Set(terms(query, { splitIdentifiers: options.splitIdentifiers }))];
  const total = segments.reduce((n, s) => n + s.size, 0);
  if (!queryTerms.length || total === 0) return [];
  const average = {
    heading: segments.reduce((n, s) => n + s.totalHeadingLength, 0) / total || 1,
    body: segments.reduce((n, s) => n + s.totalBodyLength, 0) / total || 1,
  };
  const perSegment = segments.map((s) => s.scores());
  // Keep a few times `limit` candidates, so that one chunk per section still leaves `limit` hits.
  const top = new TopK(options.onePerSection ? limit * 4 : limit);
  try {
    for (const term of queryTerms) {
      const df = segments.reduce((n, s) => n + s.documentFrequency(term), 0);
      if (!df) continue;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      segments.forEach((s, i) => s.accumulate(term, idf, average, perSegment[i]!));
    }
    perSegment.forEach((scores, i) => {
      for (const doc of scores.touched) if (scores.values[doc]! > top.floor) top.push(scores.values[doc]!, i, doc);
    });
  } finally {
    for (const scores of perSegment) scores.release();
  }
  // A section's chunks say one thing: the best one stands for it, so the passages differ.
  const seen = new Set<string>();
  const out: ScoredChunk[] = [];
  const ranked = top.sorted().map(([score, i, doc]) => ({ ...segments[i]!.chunks[doc]!, dataSourceId: segments[i]!.dataSourceId, score, section: `${i}:${segments[i]!.section(doc)}` }));
  for (const { section, ...hit } of ranked.sort(byScore)) {
    if (out.length === limit) break;
    if (options.onePerSection && seen.has(section)) continue;
    seen.add(section);
    out.push(hit);
  }
  return out;
}

const byScore = (a: ScoredChunk, b: ScoredChunk) => b.score - a.score || a.chunkId.localeCompare(b.chunkId);
