// An in-memory BM25 segment: a data source's chunks, built from its stored packs, or the changed rows
// of a newer run beside the previous segment masked (knowledge/service.ts). Statistics (N, df,
// average lengths) are summed over the bot's segments at query time (search.ts), so a segment
// never depends on another and updates stay per data source.
// Scoring is BM25F: the heading path and the body are two fields, each normalised by its own
// average length and weighted before saturation, so a heading that names the question counts more
// than the same words deep in a body (measured in bench/retrieval.ts; docs/CHAT.md).
// A chunk's score also takes in its row: the whole row's BM25 (the row read as one text). A
// paraphrased question rarely has all its words in one chunk, but often has them spread over the
// page that answers it. With `ngramWeight` the terms' character 5-grams are indexed too, for a
// second ranking that search.ts mixes in ("serializing" meets "serialization"); off by default.
import { terms } from './terms.ts';
import { PostingLists, PostingReader, TermCounts, type PostingList } from './postings.ts';
import { TextStore } from './textStore.ts';
import { StringTable, TermTable } from './stringTable.ts';
import type { SegmentVectors } from './vectors.ts';

export interface IndexedChunk {
  chunkId: string;
  rowId: string;
  heading: string | null;
  text: string;
}
/** A chunk without its text, which stays in the segment's text store until a hit needs it. */
export type ChunkRef = Omit<IndexedChunk, 'text'>;

/** Retrieval choices; the defaults are what bench/retrieval.ts measured best. */
export interface RetrieverOptions {
  /** Split identifiers (terms.ts) on both sides. */
  splitIdentifiers: boolean;
  /** Weight of the heading field against the body (1); null scores heading + body as one field. */
  headingWeight: number | null;
  /** Return at most one chunk per section (row and heading path): the best one. */
  onePerSection: boolean;
  /** A candidate gains this share of the best score among its row's other candidates (0: off; measured off in bench/retrieval.ts). */
  rowShare: number;
  /** A chunk gains this share of its whole row's BM25 score, the row read as one text (0: off). */
  rowWeight: number;
  /** Drop the words of a question's phrasing ("how can I", "is there a way") from the query. */
  questionWords: boolean;
  /** Pseudo-relevance feedback: expand the query with terms from the first pass's best chunks. */
  feedback: boolean;
  /** Rerank the candidates by the share of the query's (idf-weighted) terms each one holds: score × coverage^this (0: off). */
  coverageRerank: number;
  /**
   * A second ranking mixed in at this weight (0: off): BM25 over the character 5-grams of the
   * chunks' terms (the heading's counted twice), so "serializing" meets "serialization" and
   * "configure" meets "configuration". Each ranking's scores are divided by its best before they
   * are added; the answerer still judges a question on the passage its words alone rank first.
   */
  ngramWeight: number;
  /** With n-grams mixed in, the answerer judges a question on the chunk its words alone rank first (search.ts Evidence). */
  wordEvidence: boolean;
}

export const DEFAULT_RETRIEVER: RetrieverOptions = {
  splitIdentifiers: true,
  headingWeight: 3,
  onePerSection: true,
  rowShare: 0,
  rowWeight: 1,
  questionWords: false,
  feedback: false,
  coverageRerank: 0,
  // Off: at 1.5 it lifted cited recall on 8 of 19 tuning corpora but moved one held-out question,
  // and at full size (bench/scale.ts) its postings took the API process past 1 GB (docs/CHAT.md).
  ngramWeight: 0,
  wordEvidence: true,
};

/** A list of small integers: a JS array while a segment is built, an Int32Array once compacted. */
type Ints = number[] | Int32Array;

export const K1 = 1.2;
const B = 0.75;

export class Bm25Segment {
  /** Per chunk: heading length, body length. */
  private lengths: Ints = [];
  /** Per chunk: the section it belongs to (same row, same heading path). */
  private sections: Ints = [];
  private sectionIds = new Map<string, number>();
  /** Per section: its heading path (one string for the section's chunks); a table once compacted. */
  private sectionHeadings: Array<string | null> | StringTable = [];
  /** Per chunk: its row, as an index into the per-row arrays. */
  private rows: Ints = [];
  private rowIndex = new Map<string, number>();
  /**
   * Per row: its id, its version (the content hash its chunks came from, and whatever else follows
   * it that a newer manifest must match, such as the vectors' model; '' when added chunk by chunk),
   * its first chunk. Tables once compacted.
   */
  private rowIds: string[] | StringTable = [];
  private rowVersions: string[] | StringTable = [];
  private rowFirst: Ints = [];
  /** Per row: its length (heading + body terms of all its chunks). */
  private rowLengths: Ints = [];
  /** Chunk ids that are not `${rowId}:${hash.slice(0, 8)}:${ordinal in its row}` (chunks added one by one). */
  private otherChunkIds = new Map<number, string>();
  private texts = new TextStore();
  /** Each term's index into the posting lists; a TermTable once compacted. */
  private termIds: Map<string, number> | TermTable = new Map<string, number>();
  /** Per term: (chunk, heading tf, body tf) entries. */
  private postings = new PostingLists(this.termIds);
  /** Per term: (row, heading tf, body tf) entries, the tfs summed over the row's chunks. */
  private rowPostings = new PostingLists(this.termIds);
  /** The row being added and its terms' tfs so far (a row's chunks are added one after another). */
  private pendingRow = -1;
  private pendingRowTerms = new TermCounts();
  /** The chunk being added: its terms' tfs. */
  private chunkTerms = new TermCounts();
  private headingTotal = 0;
  private bodyTotal = 0;
  /** Per character n-gram of the terms (ids in the same vocabulary, NGRAM_MARK first): (chunk, 0, tf) entries; per chunk, its n-gram count. */
  private gramPostings = new PostingLists(this.termIds);
  private gramLengths: Ints = [];
  private gramTotal = 0;
  private compacted = false;
  /**
   * Per row, 1 for rows this view masks out (a base segment seen through a newer run's manifest:
   * withoutRows), and what they held, so every statistic is the live chunks' alone.
   */
  private deadRows: Uint8Array | null = null;
  private dead = { rows: 0, chunks: 0, heading: 0, body: 0, grams: 0 };
  /** The chunks' vectors, in chunk order, when every chunk has one of the same model. */
  vectors: SegmentVectors | null = null;

  constructor(
    readonly dataSourceId: string,
    readonly run: number,
    readonly options: RetrieverOptions = DEFAULT_RETRIEVER,
  ) {}

  /** A row's chunks, in order; their ids are derived from the row id and hash, so none is held. */
  addRow(rowId: string, hash: string, chunks: Array<{ heading: string | null; text: string }>, version = hash): void {
    if (!version.startsWith(hash)) throw new Error('a row version starts with its content hash');
    chunks.forEach((c, i) => this.add({ chunkId: `${rowId}:${hash.slice(0, 8)}:${i}`, rowId, heading: c.heading, text: c.text }, version));
  }

  add(chunk: IndexedChunk, version = ''): void {
    if (this.compacted) throw new Error('a compacted segment takes no more chunks');
    const index = this.texts.size;
    this.texts.add(chunk.text);
    const sectionKey = `${chunk.rowId}\n${chunk.heading ?? ''}`;
    let section = this.sectionIds.get(sectionKey);
    if (section === undefined) {
      this.sectionIds.set(sectionKey, (section = this.sectionIds.size));
      (this.sectionHeadings as Array<string | null>).push(chunk.heading);
    }
    (this.sections as number[]).push(section);
    let row = this.rowIndex.get(chunk.rowId);
    if (row === undefined) {
      const ids = this.rowIds as string[];
      this.rowIndex.set(chunk.rowId, (row = ids.length));
      ids.push(chunk.rowId);
      (this.rowVersions as string[]).push(version);
      (this.rowFirst as number[]).push(index);
      (this.rowLengths as number[]).push(0);
    }
    (this.rows as number[]).push(row);
    if (chunk.chunkId !== this.derivedId(index)) this.otherChunkIds.set(index, chunk.chunkId);

    const split = { splitIdentifiers: this.options.splitIdentifiers };
    const fielded = this.options.headingWeight !== null;
    const headingWords = fielded && chunk.heading ? terms(chunk.heading, split) : [];
    const bodyWords = terms(!fielded && chunk.heading ? `${chunk.heading}\n${chunk.text}` : chunk.text, split);
    (this.lengths as number[]).push(headingWords.length, bodyWords.length);
    this.headingTotal += headingWords.length;
    this.bodyTotal += bodyWords.length;
    const tf = this.chunkTerms;
    for (const w of headingWords) tf.add(this.termId(w), 1, 0);
    for (const w of bodyWords) tf.add(this.termId(w), 0, 1);
    if (row !== this.pendingRow) this.flushRow(row);
    for (const id of tf.touched) {
      const inHeading = tf.heading[id]!;
      const inBody = tf.body[id]!;
      this.postings.append(id, index, inHeading, inBody);
      if (this.options.rowWeight) this.pendingRowTerms.add(id, inHeading, inBody);
    }
    tf.clear();
    this.rowLengths[row]! += headingWords.length + bodyWords.length;
    if (this.options.ngramWeight) {
      let length = 0;
      for (const [words, times] of [[headingWords, HEADING_GRAMS], [bodyWords, 1]] as const) {
        for (const w of words) for (const g of ngramsOf(w)) (tf.add(this.termId(g), 0, times), (length += times));
      }
      for (const id of tf.touched) this.gramPostings.append(id, index, 0, tf.body[id]!);
      tf.clear();
      (this.gramLengths as number[]).push(length);
      this.gramTotal += length;
    }
  }

  private termId(term: string): number {
    const ids = this.termIds as Map<string, number>;
    let id = ids.get(term);
    if (id === undefined) ids.set(term, (id = ids.size));
    return id;
  }

  /** Writes the pending row's entries into the row lists; `next` is the row added next. */
  private flushRow(next = -1): void {
    const sums = this.pendingRowTerms;
    for (const id of sums.touched) this.rowPostings.append(id, this.pendingRow, sums.heading[id]!, sums.body[id]!);
    sums.clear();
    this.pendingRow = next;
  }

  private derivedId(doc: number): string {
    const row = this.rows[doc]!;
    return `${this.rowId(row)}:${this.rowVersion(row).slice(0, 8)}:${doc - this.rowFirst[row]!}`;
  }

  private rowId(row: number): string {
    return this.rowIds instanceof StringTable ? this.rowIds.at(row)! : this.rowIds[row]!;
  }

  private rowVersion(row: number): string {
    return this.rowVersions instanceof StringTable ? this.rowVersions.at(row)! : this.rowVersions[row]!;
  }

  private get rowTotal(): number {
    return this.rowIds.length;
  }

  /**
   * Once the last chunk is added: every list of numbers becomes a typed array (4 bytes an entry
   * instead of a JS array's 8 and its spare capacity), the texts are deflated into one Buffer, the
   * row ids, versions, headings and terms go into string tables (a few heap objects instead of one
   * per string), and the maps only adding needs are dropped. A segment lives as long as its process
   * answers the bot (knowledge/service.ts).
   */
  compact(): void {
    if (this.compacted) return;
    this.compacted = true;
    this.flushRow();
    // Sized by the vocabulary, and only adding uses them.
    this.chunkTerms = this.pendingRowTerms = new TermCounts();
    this.postings.compact();
    this.rowPostings.compact();
    this.gramPostings.compact();
    this.gramLengths = Int32Array.from(this.gramLengths);
    this.lengths = Int32Array.from(this.lengths);
    this.sections = Int32Array.from(this.sections);
    this.rows = Int32Array.from(this.rows);
    this.rowLengths = Int32Array.from(this.rowLengths);
    this.rowFirst = Int32Array.from(this.rowFirst);
    this.texts.compact();
    this.sectionIds = new Map();
    this.rowIndex = new Map();
    this.rowIds = StringTable.of(this.rowIds as string[]);
    this.rowVersions = StringTable.of(this.rowVersions as string[]);
    this.sectionHeadings = StringTable.of(this.sectionHeadings as Array<string | null>);
    this.termIds = TermTable.of(this.termIds as Map<string, number>);
    this.postings.useIds(this.termIds);
    this.rowPostings.useIds(this.termIds);
    this.gramPostings.useIds(this.termIds);
  }

  /**
   * This compacted segment without some of its rows (row indexes, see rowsOf), sharing every
   * structure with it: the previous run's segment read through the next run's manifest, whose
   * changed rows a small segment of their own holds (knowledge/service.ts). Statistics (N, df,
   * lengths) leave the masked rows out, so scores are those of a segment built without them.
   */
  withoutRows(run: number, rows: Iterable<number>): Bm25Segment {
    if (!this.compacted) throw new Error('only a compacted segment is masked');
    const view = Object.assign(Object.create(Bm25Segment.prototype), this) as Bm25Segment;
    const deadRows = new Uint8Array(this.rowTotal);
    const dead = { rows: 0, chunks: 0, heading: 0, body: 0, grams: 0 };
    for (const row of rows) {
      if (deadRows[row]) continue;
      deadRows[row] = 1;
      dead.rows++;
      const end = row + 1 < this.rowTotal ? this.rowFirst[row + 1]! : this.rows.length;
      for (let doc = this.rowFirst[row]!; doc < end; doc++) {
        dead.chunks++;
        dead.heading += this.lengths[2 * doc]!;
        dead.body += this.lengths[2 * doc + 1]!;
        dead.grams += this.gramLengths[doc] ?? 0;
      }
    }
    Object.assign(view, { run, scratch: null, gramScratch: null, deadRows, dead });
    return view;
  }

  /** Each live row's index, id and version (addRow). */
  *rowsOf(): Generator<[row: number, rowId: string, version: string]> {
    for (let row = 0; row < this.rowTotal; row++) if (!this.deadRows?.[row]) yield [row, this.rowId(row), this.rowVersion(row)];
  }

  /** Chunks of the masked rows, which this view's structures still hold. */
  get maskedChunks(): number {
    return this.dead.chunks;
  }

  get totalHeadingLength(): number {
    return this.headingTotal - this.dead.heading;
  }

  get totalBodyLength(): number {
    return this.bodyTotal - this.dead.body;
  }

  get totalGramLength(): number {
    return this.gramTotal - this.dead.grams;
  }

  /** Live chunks that hold a character n-gram (ngramsOf). */
  gramFrequency(gram: string): number {
    return this.liveChunks(this.gramPostings.list(gram));
  }

  /** Adds this segment's n-gram BM25 for one query n-gram to `scores` (indexed by chunk). */
  accumulateGrams(gram: string, idf: number, averageLength: number, scores: Scores): void {
    const list = this.gramPostings.list(gram);
    if (!list) return;
    const dead = this.deadRows;
    for (const r = reader.reset(list); r.next(); ) {
      const doc = r.key;
      if (dead?.[this.rows[doc]!]) continue;
      const tf = r.inBody;
      scores.add(doc, (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.gramLengths[doc]!) / averageLength)));
    }
  }

  private gramScratch: Scores | null = null;

  /** A second score table, for the n-gram ranking (as `scores`). */
  gramScores(): Scores {
    if (!this.gramScratch || this.gramScratch.values.length < this.rows.length) this.gramScratch = new Scores(this.rows.length);
    return this.gramScratch;
  }

  get rowCount(): number {
    return this.rowLengths.length - this.dead.rows;
  }

  get totalLength(): number {
    return this.totalHeadingLength + this.totalBodyLength;
  }

  private rowList(term: string): PostingList | null {
    // A segment searched while still being built: the row being added counts as it is so far.
    if (!this.compacted && this.pendingRowTerms.touched.length) this.flushRow(this.pendingRow);
    return this.rowPostings.list(term);
  }

  rowFrequency(term: string): number {
    const list = this.rowList(term);
    if (!list) return 0;
    if (!this.deadRows) return list.count;
    let n = 0;
    for (const r = reader.reset(list); r.next(); ) if (!this.deadRows[r.key]) n++;
    return n;
  }

  /** Adds this segment's whole-row BM25 for one query term to `rowScores` (indexed by row). */
  accumulateRows(term: string, idf: number, averageLength: number, rowScores: Float64Array): void {
    const list = this.rowList(term);
    if (!list) return;
    const dead = this.deadRows;
    // A row's tf counts heading words at the heading weight, which need not be whole.
    const weight = this.options.headingWeight ?? 1;
    for (const r = reader.reset(list); r.next(); ) {
      const row = r.key;
      if (dead?.[row]) continue;
      const tf = (r.inBody + weight * r.inHeading) / (1 - B + (B * this.rowLengths[row]!) / averageLength);
      rowScores[row]! += (idf * tf * (K1 + 1)) / (K1 + tf);
    }
  }

  /** Adds `weight` times each chunk's row score to that chunk. */
  addRowScores(scores: Scores, rowScores: Float64Array, weight: number): void {
    for (const doc of scores.touched) scores.values[doc]! += weight * rowScores[this.rows[doc]!]!;
  }

  /** Row scores are indexed by row, masked rows included. */
  get rowSlots(): number {
    return this.rowLengths.length;
  }

  /** Live chunks (the N of BM25's idf). */
  get size(): number {
    return this.rows.length - this.dead.chunks;
  }

  documentFrequency(term: string): number {
    return this.liveChunks(this.postings.list(term));
  }

  /** The live chunks of a list of chunk entries. */
  private liveChunks(list: PostingList | null): number {
    if (!list) return 0;
    if (!this.deadRows) return list.count;
    let n = 0;
    for (const r = reader.reset(list); r.next(); ) if (!this.deadRows[this.rows[r.key]!]) n++;
    return n;
  }

  /** Adds this segment's contribution for one query term to `scores` (indexed by chunk). */
  accumulate(term: string, idf: number, average: { heading: number; body: number }, scores: Scores): void {
    const list = this.postings.list(term);
    if (!list) return;
    const weight = this.options.headingWeight ?? 0;
    const dead = this.deadRows;
    for (const r = reader.reset(list); r.next(); ) {
      const doc = r.key;
      if (dead?.[this.rows[doc]!]) continue;
      const { inHeading, inBody } = r;
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
    if (!this.scratch || this.scratch.values.length < this.rows.length) this.scratch = new Scores(this.rows.length);
    return this.scratch;
  }

  section(doc: number): number {
    return this.sections[doc]!;
  }

  /** Whether a chunk is in this view (not in a masked row). */
  isLive(doc: number): boolean {
    return !this.deadRows?.[this.rows[doc]!];
  }

  /** A chunk's ids and heading, without its text. */
  chunkRef(doc: number): ChunkRef {
    const section = this.sections[doc]!;
    const heading = this.sectionHeadings instanceof StringTable ? this.sectionHeadings.at(section) : this.sectionHeadings[section]!;
    return { chunkId: this.otherChunkIds.get(doc) ?? this.derivedId(doc), rowId: this.rowId(this.rows[doc]!), heading };
  }

  text(doc: number): string {
    return this.texts.text(doc);
  }
}

/** Marks an n-gram in the vocabulary it shares with the terms, which never start so. */
const NGRAM_MARK = '\u0001';
/** A heading's n-grams count this many times (the n-gram ranking has one field). */
const HEADING_GRAMS = 2;
/** Letters in an n-gram, the word's ends marked: 5 ranked better than 3 or 4 over the retrieval bench's corpora (docs/CHAT.md). */
const GRAM = 5;

/** A term's character n-grams of GRAM letters, its ends marked, as vocabulary keys (`trees` → `_tree`, `trees`, `rees_`); a short term is one. */
export function ngramsOf(term: string): string[] {
  const marked = `_${term}_`;
  if (marked.length <= GRAM) return [NGRAM_MARK + marked];
  const out: string[] = [];
  for (let i = 0; i + GRAM <= marked.length; i++) out.push(NGRAM_MARK + marked.slice(i, i + GRAM));
  return out;
}

/** Posting lists are read start to end within one synchronous search, so one reader serves all. */
const reader = new PostingReader();

/** Per-query scores: a dense array beats a Map by several times when a common word hits most chunks. */
export class Scores {
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
