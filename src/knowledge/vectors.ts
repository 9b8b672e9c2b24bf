// A data source's chunk vectors in one Float32Array (chunk i at i × dims), searched exhaustively:
// the vectors are normalised, so cosine similarity is a dot product. Exact, no index to keep in
// step with the packs; bench/chat.ts measures it over 100,000 chunks.
export class SegmentVectors {
  constructor(
    readonly model: string,
    readonly dims: number,
    readonly data: Float32Array,
  ) {}

  get size(): number {
    return this.data.length / this.dims;
  }

  /** The `n` chunks most similar to `query`, best first, as [chunk index, similarity]. */
  nearest(query: Float32Array, n: number): Array<[number, number]> {
    const { dims, data } = this;
    if (query.length !== dims) return [];
    const top: Array<[number, number]> = [];
    let floor = -Infinity;
    for (let doc = 0, base = 0; base < data.length; doc++, base += dims) {
      let dot = 0;
      for (let j = 0; j < dims; j++) dot += data[base + j]! * query[j]!;
      if (top.length >= n && dot <= floor) continue;
      top.push([doc, dot]);
      if (top.length >= n * 4) {
        top.sort((a, b) => b[1] - a[1]).length = n;
        floor = top[n - 1]![1];
      }
    }
    return top.sort((a, b) => b[1] - a[1]).slice(0, n);
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
