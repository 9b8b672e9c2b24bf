// The embedding model against a real OpenAI-compatible server started here: it asks for base64 and
// decodes the Float32 bytes (on the embedding thread for several texts), reads float arrays from a
// server that ignores the field, asks for floats from then on when a server refuses it, and gives
// up on a request at its timeout; a plain base64 answer is read from its bytes, any other shape as
// JSON. And the stored forms of vectors (16 and 12 bits per dimension and a scale), which must keep
// similarities close and encode their own output unchanged.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddingsStub, stubVector, type EmbeddingsStub } from '../helpers/embeddingsStub.ts';
import { createEmbedder, normalise } from '../../src/knowledge/embeddings.ts';
import { base64Embeddings, decodeEmbeddings } from '../../src/knowledge/embeddingAnswer.ts';
import { startEmbeddingThread } from '../../src/knowledge/embeddingThreadClient.ts';
import { dequantise, pack12, quantise, quantiseUnit, unpack12 } from '../../src/knowledge/vectorCodec.ts';

let stub: EmbeddingsStub;
beforeAll(async () => (stub = await startEmbeddingsStub()));
afterAll(() => stub?.close());
beforeEach(() => {
  stub.requests.length = 0;
  stub.base64 = 'served';
});

const TEXTS = ['Change the engine oil of your car', 'Quasar kettles boil water', 'automobile upkeep'];
const embedder = () =>
  createEmbedder({ OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'sk-stub', EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: 2, EMBEDDING_TIMEOUT_MS: 5_000, EMBEDDING_MIN_SIMILARITY: 0.3 });
const expected = TEXTS.map((t) => Array.from(normalise(stubVector(t))));
const close = (vectors: Float32Array[]) => vectors.forEach((v, i) => Array.from(v).forEach((x, j) => expect(x).toBeCloseTo(expected[i]![j]!, 6)));

describe('the embedding model', () => {
  it('asks for base64 and decodes the Float32 bytes into normalised vectors, in input order', async () => {
    const vectors = await embedder().embed(TEXTS);
    expect(stub.requests.map((r) => r.encodingFormat)).toEqual(['base64']);
    expect(vectors).toHaveLength(3);
    close(vectors);
  });

  it('reads float arrays from a server that ignores encoding_format', async () => {
    stub.base64 = 'ignored';
    close(await embedder().embed(TEXTS));
    expect(stub.requests.map((r) => r.encodingFormat)).toEqual(['base64']);
  });

  it('asks again for floats, and for floats from then on, when a server refuses base64', async () => {
    stub.base64 = 'refused';
    const model = embedder();
    close(await model.embed(TEXTS));
    close(await model.embed(TEXTS));
    expect(stub.requests.map((r) => r.encodingFormat)).toEqual(['base64', 'float', 'float']);
  });

  it('fails with the status and the server\'s message when the server fails', async () => {
    stub.failWith = 503;
    try {
      await expect(embedder().embed(TEXTS)).rejects.toThrow('embedding model embed-a failed: 503 the embedding stub is down');
    } finally {
      stub.failWith = null;
    }
  });

  it('receives a batch on the embedding thread and one text on the main thread, the same vectors either way', async () => {
    expect(await startEmbeddingThread()).toBe(true);
    const model = embedder();
    const [batch, one] = [await model.embed(TEXTS), await model.embed([TEXTS[2]!])];
    close(batch);
    expect(Array.from(one[0]!)).toEqual(Array.from(batch[2]!));
  });

  it('quantises a sync\'s batch on the embedding thread as packs store it: the integers of the normalised vectors', async () => {
    expect(await startEmbeddingThread()).toBe(true);
    const { codes, scales } = await embedder().embedStored(TEXTS);
    const dims = codes.length / TEXTS.length;
    const fromFloats = quantise(Float32Array.from(expected.flat()), dims, 12);
    expect(scales).toHaveLength(TEXTS.length);
    Array.from(codes).forEach((c, i) => expect(Math.abs(c - fromFloats.codes[i]!)).toBeLessThanOrEqual(1));
    Array.from(scales).forEach((s, i) => expect(s).toBeCloseTo(fromFloats.scales[i]!, 7));
  });

  it('gives up on a request the server holds past EMBEDDING_TIMEOUT_MS, and answers the next one', async () => {
    expect(await startEmbeddingThread()).toBe(true);
    const model = createEmbedder({ OPENAI_BASE_URL: stub.url, EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: 2, EMBEDDING_TIMEOUT_MS: 200, EMBEDDING_MIN_SIMILARITY: 0.3 });
    stub.hold = () => true;
    try {
      await expect(model.embed(TEXTS)).rejects.toThrow(/^embedding model embed-a failed: .*timeout/);
    } finally {
      stub.hold = null;
      stub.release();
    }
    // The same thread answers the next request; a generous timeout, so a loaded machine cannot fail it.
    const next = createEmbedder({ OPENAI_BASE_URL: stub.url, EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: 2, EMBEDDING_TIMEOUT_MS: 30_000, EMBEDDING_MIN_SIMILARITY: 0.3 });
    close(await next.embed(TEXTS));
  });

  it('fails with the reason when the server cannot be reached', async () => {
    const gone = await startEmbeddingsStub();
    await gone.close();
    expect(await startEmbeddingThread()).toBe(true);
    const model = createEmbedder({ OPENAI_BASE_URL: gone.url, EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: 2, EMBEDDING_TIMEOUT_MS: 5_000, EMBEDDING_MIN_SIMILARITY: 0.3 });
    await expect(model.embed(TEXTS)).rejects.toThrow(/^embedding model embed-a failed: no response Cannot connect to API: .*ECONNREFUSED/);
  });

  it('places answers by their index and refuses answers that do not fit the request', () => {
    const bytes = (v: number[]) => Buffer.from(Float32Array.from(v).buffer).toString('base64');
    const decoded = decodeEmbeddings([{ index: 1, embedding: bytes([3, 4]) }, { index: 0, embedding: [1, 2] }], 2);
    expect(decoded.map((v) => Array.from(v))).toEqual([[1, 2], [3, 4]]);
    expect(() => decodeEmbeddings([{ embedding: [1, 2] }], 2)).toThrow(/expected 2 embeddings, got 1/);
    expect(() => decodeEmbeddings([{ embedding: [1, 2] }, { embedding: [1, 2, 3] }], 2)).toThrow(/different sizes/);
    expect(() => decodeEmbeddings([{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }], 2)).toThrow(/two embeddings for input 0/);
    expect(() => decodeEmbeddings([{ embedding: 'not a vector' }], 1)).toThrow(/neither/);
  });
});

describe('reading a base64 answer from its bytes', () => {
  const b64 = (v: number[]) => Buffer.from(Float32Array.from(v).buffer).toString('base64');
  const answer = (data: unknown[], spaces?: number) => Buffer.from(JSON.stringify({ object: 'list', data, model: 'embed-a', usage: { prompt_tokens: 7, total_tokens: 7 } }, null, spaces));
  const item = (index: number, v: number[]) => ({ object: 'embedding', index, embedding: b64(v) });

  it('gives the vectors JSON parsing gives, placed by index, from compact and pretty-printed answers', () => {
    for (const spaces of [undefined, 2]) {
      const body = answer([item(1, [3, 4.5]), item(0, [1, -2]), item(2, [0.25, 8])], spaces);
      const read = base64Embeddings(body, 3)!;
      expect(Array.from(read.floats)).toEqual([1, -2, 3, 4.5, 0.25, 8]);
      expect(Array.from(read.floats)).toEqual(Array.from(decodeEmbeddings((JSON.parse(body.toString()) as { data: unknown }).data, 3).flatMap((v) => Array.from(v))));
      expect(read.tokens).toBe(7);
    }
  });

  it('leaves every other shape to JSON parsing', () => {
    // -1.9999999 is the bytes ff ff ff bf, "////vw" in base64; a server may write "\/" for "/".
    const escaped = Buffer.from(answer([item(0, [-1.9999999, 2])]).toString().replace(/\//g, '\\/'));
    const cases: Array<[string, Buffer, number]> = [
      ['float arrays', answer([{ object: 'embedding', index: 0, embedding: [1, 2] }]), 1],
      ['no index', answer([{ object: 'embedding', embedding: b64([1, 2]) }]), 1],
      ['an index twice', answer([item(0, [1, 2]), item(0, [3, 4])]), 2],
      ['an index past the inputs', answer([item(1, [1, 2])]), 1],
      ['fewer embeddings than inputs', answer([item(0, [1, 2])]), 2],
      ['more embeddings than inputs', answer([item(0, [1, 2]), item(1, [3, 4])]), 1],
      ['sizes that differ', answer([item(0, [1, 2]), item(1, [3, 4, 5])]), 2],
      ['an error body', Buffer.from(JSON.stringify({ error: { message: 'embedding failed' } })), 1],
      ['an escaped slash', escaped, 1],
    ];
    expect(escaped.toString()).toContain('"\\/\\/\\/\\/vwAAAEA="');
    // JSON parsing reads it right.
    expect(Array.from(decodeEmbeddings((JSON.parse(escaped.toString()) as { data: unknown }).data, 1)[0]!)).toEqual([Math.fround(-1.9999999), 2]);
    for (const [what, body, count] of cases) expect(base64Embeddings(body, count), what).toBeNull();
  });
});

describe('stored vectors (16 bits per dimension and a scale per vector)', () => {
  let seed = 11;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
  const dims = 384;
  const vectors = Array.from({ length: 50 }, () => normalise(Array.from({ length: dims }, random)));
  const floats = new Float32Array(vectors.length * dims);
  vectors.forEach((v, i) => floats.set(v, i * dims));

  it('keeps every similarity within 1e-5 of the Float32 one, at half the bytes', () => {
    const { codes, scales } = quantise(floats, dims);
    expect(codes.byteLength + scales.byteLength).toBe(floats.byteLength / 2 + vectors.length * 4);
    const decoded = dequantise(codes, scales);
    const dot = (a: Float32Array, i: number, b: Float32Array, j: number) => {
      let sum = 0;
      for (let k = 0; k < dims; k++) sum += a[i * dims + k]! * b[j * dims + k]!;
      return sum;
    };
    let worst = 0;
    for (let i = 0; i < vectors.length; i++) for (let j = 0; j < vectors.length; j++) worst = Math.max(worst, Math.abs(dot(decoded, i, floats, j) - dot(floats, i, floats, j)));
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1e-5);
  });

  it('encodes its own decoded vectors to the same bytes (a rewritten pack does not drift)', () => {
    const first = quantise(floats, dims);
    const again = quantise(dequantise(first.codes, first.scales), dims);
    expect(Buffer.from(again.codes.buffer).equals(Buffer.from(first.codes.buffer))).toBe(true);
    expect(Array.from(again.scales)).toEqual(Array.from(first.scales));
  });

  it('stores 12-bit integers in three bytes per two, every similarity within 1e-4 of the Float32 one', () => {
    const { codes, scales } = quantise(floats, dims, 12);
    expect(Math.max(...Array.from(codes, Math.abs))).toBe(2_047);
    const bytes = pack12(codes);
    expect(bytes.byteLength).toBe((floats.length * 3) / 2);
    const decoded = dequantise(unpack12(bytes, codes.length), scales);
    let worst = 0;
    for (let i = 0; i < vectors.length; i++) {
      for (let j = 0; j < vectors.length; j++) {
        let [approx, exact] = [0, 0];
        for (let k = 0; k < dims; k++) {
          approx += decoded[i * dims + k]! * floats[j * dims + k]!;
          exact += floats[i * dims + k]! * floats[j * dims + k]!;
        }
        worst = Math.max(worst, Math.abs(approx - exact));
      }
    }
    expect(worst).toBeGreaterThan(1e-6);
    expect(worst).toBeLessThan(1e-4);
    const again = quantise(decoded, dims, 12);
    expect(Array.from(again.codes)).toEqual(Array.from(codes));
  });

  it('quantises a provider\'s vectors of any length as their unit vectors would be, and refuses one with a value that is not finite', () => {
    const scaledEach = Float32Array.from({ length: floats.length }, (_, i) => floats[i]! * (3 + Math.floor(i / dims)));
    for (const input of [floats, scaledEach]) {
      const unit = quantiseUnit(input, dims)!;
      const reference = quantise(floats, dims, 12);
      Array.from(unit.codes).forEach((c, i) => expect(Math.abs(c - reference.codes[i]!)).toBeLessThanOrEqual(1));
      Array.from(unit.scales).forEach((s, i) => expect(s).toBeCloseTo(reference.scales[i]!, 7));
    }
    for (const bad of [NaN, Infinity]) expect(quantiseUnit(Float32Array.from([0.5, bad, 0.5, 0.5]), 2)).toBeNull();
    expect(Array.from(quantiseUnit(new Float32Array(4), 2)!.codes)).toEqual([0, 0, 0, 0]);
  });

  it('packs and unpacks 12-bit integers exactly, an odd count and the extremes included', () => {
    const codes = Int16Array.from([-2_047, 2_047, 0, -1, 1, 2_046, -2_048 + 1, 5, -5]);
    const bytes = pack12(codes);
    expect(bytes.byteLength).toBe(15);
    // The stored layout, byte for byte: each integer + 2,048 in 12 bits, low first; an odd count's pad is 0.
    expect(Array.from(pack12(Int16Array.from([1, -1, 3])))).toEqual([0x01, 0xf8, 0x7f, 0x03, 0x08, 0x80]);
    expect(Array.from(unpack12(bytes, codes.length))).toEqual(Array.from(codes));
    // A pack cut short gives the integers it holds, not values read past its end.
    expect(Array.from(unpack12(bytes.subarray(0, 6), codes.length))).toEqual(Array.from(codes.subarray(0, 4)));
  });
});
