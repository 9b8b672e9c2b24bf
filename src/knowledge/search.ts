// Searching a bot's segments (bm25.ts): BM25F over every segment with the statistics summed over
// them, each chunk's row score added, the character 5-gram ranking mixed in, optionally a share of
// the best score among its row's other candidates, one chunk per section, the signals the answerer
// judges a question's answerability by, and the hits' texts read last, for the hits only.
import { DEFAULT_RETRIEVER, K1, ngramsOf, type Bm25Segment, type ChunkRef, type IndexedChunk, type Scores } from './bm25.ts';
import { nameWords, terms, type TermOptions } from './terms.ts';
import { TopK } from './topK.ts';

export interface ScoredChunk extends IndexedChunk {
  dataSourceId: string;
  score: number;
  coverage?: number;
  unknown?: number;
  missingName?: boolean;
  unknownName?: boolean;
  evidence?: Evidence;
  signals?: Signals;
}
/**
 * The coverage and missing name of the chunk the question's own words rank first, when a mixed
 * ranking (character n-grams) may rank another first: whether the documents answer the question is
 * judged on exact words, which passages answer it on the mixed ranking. The same for every hit of a question.
 */
export interface Evidence {
  coverage: number;
  missingName: boolean;
}
/**
 * What the grounded answerer weighs to judge whether the documents answer a question at all
 * (chat/answerers/answerability.ts), from the corpus's statistics only: the same for every hit of a
 * question. Idfs are over the idf of a term one chunk holds, so each figure means the same on any corpus.
 */
export interface Signals {
  /** The best passage's coverage (its evidence's, when the ranking mixed in character n-grams). */
  coverage: number;
  /** The best coverage among the first three passages. */
  topCoverage: number;
  /** The question's unknown share (ScoredRef.unknown). */
  unknown: number;
  /** How many of the question's terms no chunk holds. */
  unknownTerms: number;
  /** The highest idf among the terms the corpus holds but the best passage lacks (0 when it lacks none). */
  missingIdf: number;
  /** The mean idf of the question's terms. */
  specificity: number;
  /** The best passage's (word) score over the most the question's known terms could score, each saturated in chunk and row. */
  scoreShare: number;
  /** (best − second) / best, over distinct passages. */
  gap: number;
  unknownName: boolean;
  missingName: boolean;
  /** How many terms the question has. */
  terms: number;
}

/** A hit whose text is still in its segment (`withTexts` reads it). */
export interface ScoredRef extends ChunkRef {
  dataSourceId: string;
  score: number;
  segment: Bm25Segment;
  doc: number;
  /** The idf-weighted share of the question's terms the chunk's heading and text hold (0 to 1). */
  coverage?: number;
  /** The idf-weighted share of the question's terms that no chunk holds (0 to 1): the same for every hit of a question. */
  unknown?: number;
  /** Whether the chunk lacks a name the question writes (terms.ts nameTerms): "… with Kubernetes" and no "kubernetes" in it. */
  missingName?: boolean;
  /** Whether the question writes a name that no chunk holds ("… to Kubernetes" and no chunk says "kubernetes"): the same for every hit of a question. */
  unknownName?: boolean;
  evidence?: Evidence;
  signals?: Signals;
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
  return hits.map((hit) => ({ chunkId: hit.chunkId, rowId: hit.rowId, heading: hit.heading, text: texts.get(hit)!, dataSourceId: hit.dataSourceId, score: hit.score, coverage: hit.coverage, unknown: hit.unknown, missingName: hit.missingName, unknownName: hit.unknownName, evidence: hit.evidence, signals: hit.signals }));
}

export function searchSegments(segments: Bm25Segment[], query: string, limit: number): ScoredChunk[] {
  return withTexts(searchRefs(segments, query, limit));
}

/** A query term and its weight (1 for the question's own words, less for feedback terms). */
type QueryTerm = [term: string, weight: number];

/** searchSegments without the texts: what hybrid search fuses before it keeps `limit` hits. */
export function searchRefs(segments: Bm25Segment[], query: string, limit: number): ScoredRef[] {
  const options = segments[0]?.options ?? DEFAULT_RETRIEVER;
  const split: TermOptions = { splitIdentifiers: options.splitIdentifiers };
  let words = [...new Set(terms(query, split))];
  if (options.questionWords) {
    const kept = words.filter((w) => !QUESTION_WORDS.has(w));
    if (kept.length) words = kept;
  }
  const total = segments.reduce((n, s) => n + s.size, 0);
  if (!words.length || total === 0) return [];
  const stats = new CorpusStats(segments);
  const queryTerms: QueryTerm[] = words.map((w) => [w, 1]);
  // Keep a few times `limit` candidates, so that one chunk per section still leaves `limit` hits,
  // and enough of them that a row's other good chunks are among them.
  const k = Math.max(limit * 4, RERANK_DEPTH);
  const wordBest: Candidate[] = [];
  let ranked = rank(segments, stats, queryTerms, k, wordBest);
  if (options.feedback && ranked.length) ranked = rank(segments, stats, [...queryTerms, ...feedbackTerms(ranked, stats, words, split)], k);
  ranked = shareRowScores(ranked, options.rowShare);
  const names = nameWords(query, split);
  setCoverage(ranked, stats, words, names, split);
  if (options.wordEvidence && wordBest.length && ranked.length) {
    setCoverage(wordBest, stats, words, names, split);
    const evidence = { coverage: wordBest[0]!.coverage!, missingName: wordBest[0]!.missingName! };
    for (const c of ranked) c.evidence = evidence;
  }
  if (options.coverageRerank) ranked = ranked.map((c) => ({ ...c, score: c.score * c.coverage! ** options.coverageRerank })).sort(byScore);
  // A section's chunks say one thing: the best one stands for it, so the passages differ.
  const seen = new Set<string>();
  const out: ScoredRef[] = [];
  for (const { section, terms: _terms, ...hit } of ranked) {
    if (out.length === limit) break;
    if (options.onePerSection && seen.has(section)) continue;
    seen.add(section);
    out.push(hit);
  }
  if (out.length) {
    const signals = answerSignals(out, stats, words, split, options.wordEvidence && wordBest[0] ? wordBest[0] : ranked[0]!, options.rowWeight);
    for (const hit of out) hit.signals = signals;
  }
  return out;
}

/** The Signals of a question's hits (`best`: the chunk whose coverage judges it, ScoredRef.evidence). */
function answerSignals(out: ScoredRef[], stats: CorpusStats, words: string[], split: TermOptions, best: Candidate, rowWeight: number): Signals {
  // The idf of a term one chunk holds: the highest a known term can have.
  const top = Math.log(1 + (stats.total - 0.5) / 1.5);
  const known = words.filter((w) => stats.df(w));
  const held = new Set(candidateTerms(best, split));
  const most = known.reduce((n, w) => n + stats.idf(w), 0) * (K1 + 1) * (1 + rowWeight);
  const [first, second] = out;
  return {
    coverage: best.coverage!,
    topCoverage: Math.max(...out.slice(0, 3).map((h) => h.coverage ?? 0)),
    unknown: first!.unknown ?? 0,
    unknownTerms: words.length - known.length,
    missingIdf: Math.max(0, ...known.filter((w) => !held.has(w)).map((w) => stats.idf(w))) / top,
    specificity: words.reduce((n, w) => n + stats.idf(w), 0) / words.length / top,
    scoreShare: most ? best.score / most : 0,
    gap: second ? (first!.score - second.score) / first!.score : 1,
    unknownName: !!first!.unknownName,
    missingName: !!best.missingName,
    terms: words.length,
  };
}

/**
 * Words of a question's phrasing rather than its subject, as terms() leaves them (stemmed): they
 * match everywhere in docs written to "you", so they add noise, never the answer.
 */
const QUESTION_WORDS = new Set(
  terms(
    'way possible want need something anything thing get make use happen tell know explain mean work exist ' +
      'should shall may might must also just like able does not no any some all each',
  ),
);
/** Candidates at least, whatever the limit: the coverage rerank reorders them. */
const RERANK_DEPTH = 30;
/** Feedback: the first pass's best chunks read, the terms taken from them, and their total weight against the question's. */
const FEEDBACK_DOCS = 5;
const FEEDBACK_TERMS = 8;
const FEEDBACK_WEIGHT = 0.5;

/** The statistics summed over a bot's segments: N, average lengths, and each term's df and idf. */
class CorpusStats {
  readonly total: number;
  private readonly idfs = new Map<string, number>();
  constructor(readonly segments: Bm25Segment[]) {
    this.total = segments.reduce((n, s) => n + s.size, 0);
  }
  df(term: string): number {
    return this.segments.reduce((n, s) => n + s.documentFrequency(term), 0);
  }
  /** BM25's idf; a term no chunk holds gets the idf of a term held once (it still counts as missing). */
  idf(term: string): number {
    let idf = this.idfs.get(term);
    if (idf === undefined) {
      const df = Math.max(1, this.df(term));
      this.idfs.set(term, (idf = Math.log(1 + (this.total - df + 0.5) / (df + 0.5))));
    }
    return idf;
  }
}

/** A candidate's terms, heading then text, read once per query (coverage and feedback both need them). */
function candidateTerms(c: Candidate, split: TermOptions): string[] {
  return (c.terms ??= terms(`${c.heading ?? ''}\n${c.segment.text(c.doc)}`, split));
}

/**
 * RM3-style feedback (Lavrenko & Croft; Abdul-Jaleel et al. 2004): the terms of the first pass's best
 * chunks, each chunk weighted by its share of their scores and each term by its share of the chunk
 * and its idf; the best few, not in the question, join it with FEEDBACK_WEIGHT in all.
 */
function feedbackTerms(ranked: Candidate[], stats: CorpusStats, words: string[], split: TermOptions): QueryTerm[] {
  const top = ranked.slice(0, FEEDBACK_DOCS);
  const sum = top.reduce((n, c) => n + c.score, 0) || 1;
  const weights = new Map<string, number>();
  for (const c of top) {
    const chunkTerms = candidateTerms(c, split);
    for (const t of chunkTerms) weights.set(t, (weights.get(t) ?? 0) + c.score / sum / chunkTerms.length);
  }
  const asked = new Set(words);
  const scored = [...weights]
    .filter(([t]) => !asked.has(t) && t.length > 2)
    .map(([t, w]): QueryTerm => [t, w * stats.idf(t)])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, FEEDBACK_TERMS);
  const best = scored.reduce((n, [, w]) => n + w, 0) || 1;
  return scored.map(([t, w]) => [t, (FEEDBACK_WEIGHT * w) / best]);
}

/**
 * Sets each candidate's coverage, the idf-weighted share of the question's terms its heading and
 * text hold, the question's unknown share, the idf-weighted share of its terms no chunk holds,
 * whether it lacks one of the names the question writes, and whether one of those names is held by
 * no chunk at all (every term of that word unknown; an identifier such as `AI_RetryError` whose
 * parts the documents use is not).
 */
function setCoverage(ranked: Candidate[], stats: CorpusStats, words: string[], names: string[][], split: TermOptions): void {
  const whole = words.reduce((n, w) => n + stats.idf(w), 0) || 1;
  const unknown = words.reduce((n, w) => n + (stats.df(w) ? 0 : stats.idf(w)), 0) / whole;
  const unknownName = names.some((name) => name.every((w) => !stats.df(w)));
  const nameTerms = [...new Set(names.flat())];
  for (const c of ranked) {
    const held = new Set(candidateTerms(c, split));
    c.coverage = words.reduce((n, w) => n + (held.has(w) ? stats.idf(w) : 0), 0) / whole;
    c.unknown = unknown;
    c.missingName = nameTerms.some((w) => !held.has(w));
    c.unknownName = unknownName;
  }
}

type Candidate = ScoredRef & { section: string; terms?: string[] };

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

/** The best `k` chunks for the query's weighted terms, best first. */
function rank(segments: Bm25Segment[], stats: CorpusStats, queryTerms: QueryTerm[], k: number, wordBest: Candidate[] = []): Candidate[] {
  const options = segments[0]!.options;
  const total = stats.total;
  const average = {
    heading: segments.reduce((n, s) => n + s.totalHeadingLength, 0) / total || 1,
    body: segments.reduce((n, s) => n + s.totalBodyLength, 0) / total || 1,
  };
  const perSegment = segments.map((s) => s.scores());
  const top = new TopK(k);
  try {
    for (const [term, weight] of queryTerms) {
      const df = stats.df(term);
      if (!df) continue;
      const idf = weight * Math.log(1 + (total - df + 0.5) / (df + 0.5));
      segments.forEach((s, i) => s.accumulate(term, idf, average, perSegment[i]!));
    }
    if (options.rowWeight) {
      const rowTotal = segments.reduce((n, s) => n + s.rowCount, 0);
      const averageLength = segments.reduce((n, s) => n + s.totalLength, 0) / rowTotal || 1;
      const rowScores = segments.map((s) => new Float64Array(s.rowSlots));
      for (const [term, weight] of queryTerms) {
        const df = segments.reduce((n, s) => n + s.rowFrequency(term), 0);
        if (!df) continue;
        const idf = weight * Math.log(1 + (rowTotal - df + 0.5) / (df + 0.5));
        segments.forEach((s, i) => s.accumulateRows(term, idf, averageLength, rowScores[i]!));
      }
      segments.forEach((s, i) => s.addRowScores(perSegment[i]!, rowScores[i]!, options.rowWeight));
    }
    if (options.ngramWeight) {
      let best: [number, number, number] = [0, -1, -1];
      perSegment.forEach((scores, i) => {
        for (const doc of scores.touched) if (scores.values[doc]! > best[0]) best = [scores.values[doc]!, i, doc];
      });
      const [score, i, doc] = best;
      if (i >= 0) wordBest.push(candidate(segments, score, i, doc));
      mixGrams(segments, stats, queryTerms, perSegment, score || 1, options.ngramWeight);
    }
    perSegment.forEach((scores, i) => {
      for (const doc of scores.touched) if (scores.values[doc]! > top.floor) top.push(scores.values[doc]!, i, doc);
    });
  } finally {
    for (const scores of perSegment) scores.release();
  }
  return top
    .sorted()
    .map(([score, i, doc]) => candidate(segments, score, i, doc))
    .sort(byScore);
}

const candidate = (segments: Bm25Segment[], score: number, i: number, doc: number): Candidate => ({
  ...segments[i]!.chunkRef(doc),
  dataSourceId: segments[i]!.dataSourceId,
  score,
  segment: segments[i]!,
  doc,
  section: `${i}:${segments[i]!.section(doc)}`,
});

/**
 * Mixes the n-gram ranking into the word ranking's scores (`wordBest`: their best, or 1 when none
 * scored): each divided by its best, the n-gram
 * one times `weight`, added. It reorders the chunks that hold a word of the question: one that
 * holds none is still no hit, so an identifier no chunk holds ("item3v0") finds nothing.
 */
function mixGrams(segments: Bm25Segment[], stats: CorpusStats, queryTerms: QueryTerm[], perSegment: Scores[], wordBest: number, weight: number): void {
  const grams = new Map<string, number>();
  for (const [term, w] of queryTerms) for (const g of ngramsOf(term)) grams.set(g, Math.max(grams.get(g) ?? 0, w));
  const total = stats.total;
  const averageLength = segments.reduce((n, s) => n + s.totalGramLength, 0) / total || 1;
  const gramScores = segments.map((s) => s.gramScores());
  try {
    for (const [gram, w] of grams) {
      const df = segments.reduce((n, s) => n + s.gramFrequency(gram), 0);
      if (!df) continue;
      const idf = w * Math.log(1 + (total - df + 0.5) / (df + 0.5));
      segments.forEach((s, i) => s.accumulateGrams(gram, idf, averageLength, gramScores[i]!));
    }
    const gramBest = (gramScores.reduce((m, t) => t.touched.reduce((n, doc) => Math.max(n, t.values[doc]!), m), 0) || 1) / weight;
    perSegment.forEach((scores, i) => {
      for (const doc of scores.touched) scores.values[doc]! /= wordBest;
      const g = gramScores[i]!;
      for (const doc of g.touched) if (scores.values[doc]) scores.values[doc]! += g.values[doc]! / gramBest;
    });
  } finally {
    for (const g of gramScores) g.release();
  }
}

const byScore = (a: ScoredRef, b: ScoredRef) => b.score - a.score || a.chunkId.localeCompare(b.chunkId);
