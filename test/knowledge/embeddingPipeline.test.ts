// A sync's embedding batches (EmbeddingPipeline) against a real embeddings server: they start at
// EMBEDDING_BATCH_SIZE and double, up to four times it, while answers come back within a sixteenth of
// EMBEDDING_TIMEOUT_MS and their chunks stay under 100,000 tokens; a provider that refuses a grown
// batch gets it again at EMBEDDING_BATCH_SIZE.
// Time is the test's own clock, so no test depends on how fast the machine answers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddingsStub, stubVector, type EmbeddingsStub } from '../helpers/embeddingsStub.ts';
import { createEmbedder, embeddingText, EmbeddingPipeline, normalise } from '../../src/knowledge/embeddings.ts';
import { quantise } from '../../src/knowledge/vectorCodec.ts';
import type { RowChunks } from '../../src/knowledge/store.ts';

let stub: EmbeddingsStub;
beforeAll(async () => (stub = await startEmbeddingsStub()));
afterAll(() => stub?.close());
beforeEach(() => {
  stub.requests.length = 0;
  stub.maxInputs = null;
});

const TIMEOUT_MS = 10_000;
const embedder = () => createEmbedder({ OPENAI_BASE_URL: stub.url, EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: 2, EMBEDDING_TIMEOUT_MS: TIMEOUT_MS, EMBEDDING_MIN_SIMILARITY: 0.3 });
/** 30 rows of 2 chunks, each chunk its own words. */
const rows = (): RowChunks[] =>
  Array.from({ length: 30 }, (_, r) => ({ rowId: `row-${r}`, hash: `h${r}`, chunks: [0, 1].map((c) => ({ heading: null, text: `word${r} part${c} term${(r * 7 + c) % 11}`, tokens: 3 })) }));

/** Runs the rows through a pipeline whose clock moves `stepMs` at each reading; returns the groups handed on. */
async function embedAll(model: ReturnType<typeof embedder>, stepMs: number, tokensPerChunk = 3): Promise<RowChunks[]> {
  let clock = 0;
  const handedOn: RowChunks[] = [];
  const pipeline = new EmbeddingPipeline(model, { onEmbedded: (g) => handedOn.push(g), timeoutMs: TIMEOUT_MS, now: () => (clock += stepMs) });
  for (const group of rows()) await pipeline.add({ ...group, chunks: group.chunks.map((c) => ({ ...c, tokens: tokensPerChunk })) });
  await pipeline.finish();
  return handedOn;
}

/** Each chunk's stored integers are its own text's. */
function expectOwnVectors(groups: RowChunks[]) {
  expect(groups.map((g) => g.rowId)).toEqual(rows().map((g) => g.rowId));
  for (const g of groups) {
    const stored = (g.embedding as { stored: { codes: Int16Array } }).stored;
    const expected = quantise(Float32Array.from(g.chunks.flatMap((c) => Array.from(normalise(stubVector(embeddingText(c)))))), stored.codes.length / g.chunks.length, 12);
    Array.from(stored.codes).forEach((code, i) => expect(Math.abs(code - expected.codes[i]!)).toBeLessThanOrEqual(1));
  }
}
const sizes = () => stub.requests.map((r) => r.input.length);

describe("a sync's embedding batches", () => {
  it('double while the provider answers fast, up to four times EMBEDDING_BATCH_SIZE, each chunk keeping its own vector', async () => {
    expectOwnVectors(await embedAll(embedder(), 0));
    expect(sizes().reduce((n, s) => n + s, 0)).toBe(60);
    expect(Math.max(...sizes())).toBe(8);
    expect(sizes()[0]).toBe(2);
  });

  it('keep EMBEDDING_BATCH_SIZE while answers take longer than a sixteenth of EMBEDDING_TIMEOUT_MS', async () => {
    expectOwnVectors(await embedAll(embedder(), TIMEOUT_MS / 16 + 1));
    expect(sizes().every((s) => s === 2)).toBe(true);
  });

  it('go out once their chunks reach 100,000 tokens, whatever their size (OpenAI refuses a request over 300,000)', async () => {
    const model = createEmbedder({ OPENAI_BASE_URL: stub.url, EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: 8, EMBEDDING_TIMEOUT_MS: TIMEOUT_MS, EMBEDDING_MIN_SIMILARITY: 0.3 });
    expectOwnVectors(await embedAll(model, 0, 40_000));
    expect(sizes().slice(0, -1).every((s) => s === 3)).toBe(true);
    expect(sizes().reduce((n, s) => n + s, 0)).toBe(60);
  });

  it('go again at EMBEDDING_BATCH_SIZE when the provider refuses a grown batch, and do not grow again', async () => {
    stub.maxInputs = 2;
    const model = embedder();
    expectOwnVectors(await embedAll(model, 0));
    // Grown batches sent before the first refusal came back (4 requests in flight at most), none after.
    const grown = sizes().filter((s) => s > 2).length;
    expect(grown).toBeGreaterThan(0);
    expect(grown).toBeLessThanOrEqual(4);
    stub.requests.length = 0;
    expectOwnVectors(await embedAll(model, 0));
    expect(sizes().every((s) => s === 2)).toBe(true);
  });
});
