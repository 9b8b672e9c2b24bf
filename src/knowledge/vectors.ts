// A data source's chunk vectors in one Float32Array (chunk i at i × dims). The vectors are
// normalised, so cosine similarity is a dot product. A small segment is scanned exactly; a large one
// first ranks every chunk by the Hamming distance of sign bits (binary quantisation: 32 dimensions
// per integer op), then rescores the closest few hundred exactly. An exhaustive float scan of
// 100,000 × 384 took ~110 ms on the bench machine; see docs/BENCHMARKS.md for both.
import { TopK } from './topK.ts';

const EXACT_UP_TO = 2_000;
/** Candidates rescored per wanted result (oversampling hides most of the quantisation error). */
const OVERSAMPLE = 8;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function signBits(vector: Float32Array, from: number, dims: number, out: Uint32Array, at: number): void {
  for (let j = 0; j < dims; j++) if (vector[from + j]! > 0) out[at + (j >>> 5)]! |= 1 << (j & 31);
}

export class SegmentVectors {
  private readonly words: number;
  private readonly bits: Uint32Array | null;

  constructor(
    readonly model: string,
    readonly dims: number,
    readonly data: Float32Array,
  ) {
    this.words = Math.ceil(dims / 32);
    const size = data.length / dims;
    this.bits = size > EXACT_UP_TO ? new Uint32Array(size * this.words) : null;
    if (this.bits) for (let doc = 0; doc < size; doc++) signBits(data, doc * dims, dims, this.bits, doc * this.words);
  }

  get size(): number {
    return this.data.length / this.dims;
  }

  private dot(doc: number, query: Float32Array): number {
    const { dims, data } = this;
    let sum = 0;
    for (let j = 0, base = doc * dims; j < dims; j++) sum += data[base + j]! * query[j]!;
    return sum;
  }

  /** The `n` chunks most similar to `query`, best first, as [chunk index, similarity]. */
  nearest(query: Float32Array, n: number): Array<[number, number]> {
    if (query.length !== this.dims) return [];
    const candidates = this.bits && this.size > n * OVERSAMPLE ? this.closestBySign(query, n * OVERSAMPLE) : null;
    const top = new TopK(n);
    if (candidates) for (const doc of candidates) top.push(this.dot(doc, query), 0, doc);
    else for (let doc = 0; doc < this.size; doc++) top.push(this.dot(doc, query), 0, doc);
    return top.sorted().map(([similarity, , doc]) => [doc, similarity]);
  }

  /** The `count` chunks whose sign bits differ least from the query's (a histogram finds the cut). */
  private closestBySign(query: Float32Array, count: number): number[] {
    const { words, bits, dims } = this;
    const q = new Uint32Array(words);
    signBits(query, 0, dims, q, 0);
    const size = this.size;
    const distance = new Uint16Array(size);
    const histogram = new Uint32Array(dims + 1);
    for (let doc = 0, base = 0; doc < size; doc++, base += words) {
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount(bits![base + w]! ^ q[w]!);
      distance[doc] = d;
      histogram[d]!++;
    }
    let cut = 0;
    for (let seen = 0; cut <= dims && seen + histogram[cut]! < count; cut++) seen += histogram[cut]!;
    const out: number[] = [];
    for (let doc = 0; doc < size; doc++) if (distance[doc]! <= cut) out.push(doc);
    return out;
  }
}

/** Joins per-row vector blocks into one table, or null unless every chunk has a vector of one model and size. */
export function joinVectors(blocks: Array<{ model: string; vectors: Float32Array; chunks: number } | null>): SegmentVectors | null {
  const first = blocks[0];
  if (!first || blocks.some((b) => !b || b.model !== first.model)) return null;
  const dims = first.vectors.length / first.chunks;
  if (!Number.isInteger(dims) || dims === 0) return null;
  const total = blocks.reduce((n, b) => n + b!.chunks, 0);
  const data = new Float32Array(total * dims);
  let at = 0;
  for (const block of blocks) {
    if (block!.vectors.length !== block!.chunks * dims) return null;
    data.set(block!.vectors, at);
    at += block!.vectors.length;
  }
  return new SegmentVectors(first.model, dims, data);
}
