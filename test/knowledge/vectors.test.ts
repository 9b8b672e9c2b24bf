// Vector search inside a segment: exact below 2,000 chunks, sign-bit prefilter with exact rescoring
// above; and the top-k heap both rankings share.
import { describe, expect, it } from 'vitest';
import { joinVectors, nearestIn, SegmentVectors } from '../../src/knowledge/vectors.ts';
import { dequantise, quantise } from '../../src/knowledge/vectorCodec.ts';
import { TopK } from '../../src/knowledge/topK.ts';
import { normalise } from '../../src/knowledge/embeddings.ts';

let seed = 7;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
function table(size: number, dims: number): Float32Array {
  const data = new Float32Array(size * dims);
  for (let i = 0; i < size; i++) data.set(normalise(Array.from({ length: dims }, random)), i * dims);
  return data;
}
const dot = (data: Float32Array, doc: number, q: Float32Array) => q.reduce((n, x, j) => n + x * data[doc * q.length + j]!, 0);

describe('segment vectors', () => {
  for (const size of [500, 6_000]) {
    it(`finds the planted neighbour first with exact similarities, over ${size} chunks`, () => {
      const dims = 64;
      const data = table(size, dims);
      const planted = Math.floor(size / 3);
      const query = normalise(Array.from(data.subarray(planted * dims, (planted + 1) * dims), (x) => x + random() * 0.05));
      const found = new SegmentVectors('m', dims, data).nearest(query, 5);
      expect(found).toHaveLength(5);
      expect(found[0]![0]).toBe(planted);
      // Held as 12-bit integers: within ~1e-4 of the Float32 dot product.
      for (const [doc, similarity] of found) expect(similarity).toBeCloseTo(dot(data, doc, query), 3);
      expect(found.map(([, s]) => s)).toEqual(found.map(([, s]) => s).sort((a, b) => b - a));
    });
  }

  for (const size of [500, 6_000]) {
    it(`skips chunks that do not count before choosing candidates, over ${size} chunks`, () => {
      // 200 near-copies of the query that a newer run masked: they would fill every candidate's place.
      const dims = 64;
      const data = table(size, dims);
      // Not from `random`, whose sequence repeats within a large table.
      const query = normalise(Array.from({ length: dims }, (_, j) => Math.sin(j * 12.9898 + 1)));
      const masked = new Set(Array.from({ length: 200 }, (_, k) => k * Math.floor(size / 200)));
      for (const doc of masked) data.set(normalise(Array.from(query, (x) => x + random() * 0.01)), doc * dims);
      const vectors = new SegmentVectors('m', dims, data);
      expect(nearestIn([vectors], query, 5).every(([, doc]) => masked.has(doc))).toBe(true);
      const found = nearestIn([vectors], query, 5, [(doc) => !masked.has(doc)]);
      expect(found).toHaveLength(5);
      expect(found.some(([, doc]) => masked.has(doc))).toBe(false);
      // Exact over what counts: the best live chunk is found.
      const live = Array.from({ length: size }, (_, doc) => doc).filter((doc) => !masked.has(doc));
      const best = live.reduce((a, b) => (dot(data, b, query) > dot(data, a, query) ? b : a));
      if (size < 2_000) expect(found[0]![1]).toBe(best);
    });
  }

  it('joins stored 12-bit vectors as the same integers, and scores them as their decoded Float32 values', () => {
    const dims = 48;
    const stored = quantise(table(300, dims), dims, 12);
    const decoded = dequantise(stored.codes, stored.scales);
    // Two rows' blocks as a pack reads them: views into the pack's integers and scales.
    const block = (from: number, to: number) => ({ model: 'm', stored: { codes: stored.codes.subarray(from * dims, to * dims), scales: stored.scales.subarray(from, to) } });
    const joined = joinVectors([block(0, 100), block(100, 300)])!;
    expect(Array.from(joined.codes)).toEqual(Array.from(stored.codes));
    expect(Array.from(joined.scales)).toEqual(Array.from(stored.scales));
    const query = normalise(Array.from({ length: dims }, (_, j) => Math.cos(j)));
    for (let doc = 0; doc < 300; doc++) expect(Math.abs(joined.dot(doc, query) - dot(decoded, doc, query))).toBeLessThan(1e-6);
  });

  it('joins nothing when a block is missing, of another model or not whole vectors', () => {
    const dims = 8;
    const stored = quantise(table(4, dims), dims, 12);
    const whole = { model: 'm', stored };
    expect(joinVectors([whole, null])).toBeNull();
    expect(joinVectors([whole, { model: 'other', stored }])).toBeNull();
    expect(joinVectors([whole, { model: 'm', stored: { codes: stored.codes.subarray(0, 12), scales: stored.scales.subarray(0, 2) } }])).toBeNull();
    expect(joinVectors([whole, whole])!.size).toBe(8);
  });

  it('answers nothing for a query of another size (another model)', () => {
    expect(new SegmentVectors('m', 8, table(10, 8)).nearest(new Float32Array(4), 3)).toEqual([]);
  });
});

describe('top k', () => {
  it('keeps the k best of a stream, best first', () => {
    const scores = Array.from({ length: 1000 }, () => random());
    const top = new TopK(10);
    scores.forEach((s, i) => top.push(s, i % 3, i));
    expect(top.sorted().map(([s]) => s)).toEqual([...scores].sort((a, b) => b - a).slice(0, 10));
    expect(top.sorted().every(([s, segment, item]) => scores[item] === s && segment === item % 3)).toBe(true);
  });
});
