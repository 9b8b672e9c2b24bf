// A data source's chunk vectors as 12-bit integers and one scale per chunk (component ≈ integer ×
// scale; vectorCodec.ts), as packs store them: half the memory of Float32 (2 bytes a dimension, ~77 MB
// for 100,000 chunks of 384 dimensions), and the same similarities, since the stored integers were
// all a Float32 copy ever held. The vectors are normalised, so cosine similarity is a dot product.
// Small segments are scanned exactly; over large ones every chunk is first ranked by the Hamming
// distance of sign bits (binary quantisation: 32 dimensions per integer op), then the closest few
// hundred of the bot's segments together are rescored exactly. An exhaustive float scan of
// 100,000 × 384 took ~110 ms on the bench machine; see docs/BENCHMARKS.md for both.
import { TopK } from './topK.ts';
import { quantise, type StoredVectors } from './vectorCodec.ts';

const EXACT_UP_TO = 2_000;
/** A skipped chunk's distance: above any cut (a cut is at most the dimensions + 1). */
const SKIPPED = 0xffff;
/** Candidates rescored per wanted result (oversampling hides most of the quantisation error). */
const OVERSAMPLE = 8;

/** Set bits of every 16-bit value: two lookups count a word, fewer operations than bit tricks. */
const BITS16 = new Uint8Array(1 << 16);
for (let i = 1; i < BITS16.length; i++) BITS16[i] = (i & 1) + BITS16[i >>> 1]!;

function popcount(x: number): number {
  return BITS16[x & 0xffff]! + BITS16[x >>> 16]!;
}

function signBits(vector: ArrayLike<number>, from: number, dims: number, out: Uint32Array, at: number): void {
  for (let j = 0; j < dims; j++) if (vector[from + j]! > 0) out[at + (j >>> 5)]! |= 1 << (j & 31);
}

export class SegmentVectors {
  readonly words: number;
  readonly bits: Uint32Array | null;
  /** Per chunk: Hamming distance to the current query's sign bits (scratch: a search never awaits). */
  readonly distance: Uint16Array | null;
  /** Chunk i's components at i × dims, as 12-bit integers; its scale at i. */
  readonly codes: Int16Array;
  readonly scales: Float32Array;

  /** From Float32 vectors end to end (quantised here), or from integers and scales as stored. */
  constructor(
    readonly model: string,
    readonly dims: number,
    vectors: Float32Array | StoredVectors,
  ) {
    ({ codes: this.codes, scales: this.scales } = vectors instanceof Float32Array ? quantise(vectors, dims, 12) : vectors);
    this.words = Math.ceil(dims / 32);
    const size = this.scales.length;
    this.bits = size > EXACT_UP_TO ? new Uint32Array(size * this.words) : null;
    this.distance = this.bits ? new Uint16Array(size) : null;
    if (this.bits) for (let doc = 0; doc < size; doc++) signBits(this.codes, doc * dims, dims, this.bits, doc * this.words);
  }

  get size(): number {
    return this.scales.length;
  }

  dot(doc: number, query: Float32Array): number {
    const { dims, codes } = this;
    let sum = 0;
    for (let j = 0, base = doc * dims; j < dims; j++) sum += codes[base + j]! * query[j]!;
    return sum * this.scales[doc]!;
  }

  /** The `n` chunks most similar to `query`, best first, as [chunk index, similarity]. */
  nearest(query: Float32Array, n: number): Array<[number, number]> {
    return nearestIn([this], query, n).map(([, doc, similarity]) => [doc, similarity]);
  }
}

/**
 * The `n` chunks most similar to `query` over several tables, best first, as [table, chunk,
 * similarity]. Tables of another size of vector are skipped. Small tables are scanned exactly; over
 * the large ones one histogram of sign-bit distances picks the `n × OVERSAMPLE` closest in all of
 * them, and only those are rescored: a bot's candidates, not each data source's. `live[i]`, when
 * given, says which chunks of table i count (a masked row's are skipped before the cut, so they
 * take no candidate's place).
 */
export function nearestIn(tables: SegmentVectors[], query: Float32Array, n: number, live?: Array<((doc: number) => boolean) | null>): Array<[number, number, number]> {
  const top = new TopK(n);
  const prefiltered: number[] = [];
  const words = Math.ceil(query.length / 32);
  const q = new Uint32Array(words);
  signBits(query, 0, query.length, q, 0);
  const histogram = new Uint32Array(query.length + 1);
  tables.forEach((t, i) => {
    if (t.dims !== query.length) return;
    const counts = live?.[i];
    if (!t.bits) {
      for (let doc = 0; doc < t.size; doc++) if (!counts || counts(doc)) top.push(t.dot(doc, query), i, doc);
      return;
    }
    prefiltered.push(i);
    const { bits, distance } = t;
    for (let doc = 0, base = 0, size = t.size; doc < size; doc++, base += words) {
      if (counts && !counts(doc)) {
        distance![doc] = SKIPPED;
        continue;
      }
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount(bits[base + w]! ^ q[w]!);
      distance![doc] = d;
      histogram[d]!++;
    }
  });
  if (prefiltered.length) {
    // The cut: every chunk closer than `cut`, and as many at `cut` as still fit.
    const count = n * OVERSAMPLE;
    let cut = 0;
    let seen = 0;
    for (; cut < histogram.length && seen + histogram[cut]! < count; cut++) seen += histogram[cut]!;
    let atCut = count - seen;
    for (const i of prefiltered) {
      const t = tables[i]!;
      const distance = t.distance!;
      for (let doc = 0, size = t.size; doc < size; doc++) {
        const d = distance[doc]!;
        if (d < cut || (d === cut && atCut-- > 0)) top.push(t.dot(doc, query), i, doc);
      }
    }
  }
  return top.sorted().map(([similarity, table, doc]) => [table, doc, similarity]);
}

/**
 * Joins per-row vectors as stored (12-bit integers and scales) into one table, or null unless every
 * block has vectors of one model and size: the integers are copied as they are, so a pack's vectors
 * are never decoded to Float32 and quantised again on load.
 */
export function joinVectors(blocks: Array<{ model: string; stored: StoredVectors } | null>): SegmentVectors | null {
  const first = blocks[0];
  if (!first || blocks.some((b) => !b || b.model !== first.model)) return null;
  const dims = first.stored.codes.length / first.stored.scales.length;
  if (!Number.isInteger(dims) || dims === 0) return null;
  const total = blocks.reduce((n, b) => n + b!.stored.scales.length, 0);
  const codes = new Int16Array(total * dims);
  const scales = new Float32Array(total);
  let at = 0;
  for (const block of blocks) {
    const stored = block!.stored;
    if (stored.codes.length !== stored.scales.length * dims) return null;
    codes.set(stored.codes, at * dims);
    scales.set(stored.scales, at);
    at += stored.scales.length;
  }
  return new SegmentVectors(first.model, dims, { codes, scales });
}
