// Hybrid retrieval with EMBEDDING_MODEL (issue 18), against a real OpenAI-compatible embeddings
// server started here: vectors are made at sync in batches and stored with their chunks, only changed
// rows are embedded again, queries fuse BM25 and vector ranks above a similarity floor (so "I don't
// know" stays), provider errors end a sync in sync_error and make a chat fall back to BM25, and a new
// model is used only once a sync re-embedded. Packs of the former layouts (raw Float32 vectors,
// 16-bit integers) keep answering after the upgrade and are rewritten in the current one (12-bit
// integers) when a sync compacts them.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, type TestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { startEmbeddingsStub, type EmbeddingsStub } from '../helpers/embeddingsStub.ts';
import { createDataSource, rowIds, syncAndWait, waitForSyncEnd } from '../datasources/support.ts';
import { syncStaleEmbeddings } from '../../src/datasources/reembed.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { DataSourceModel } from '../../src/datasources/model.ts';
import { readCommitted, readPack } from '../../src/knowledge/store.ts';
import { KnowledgePackModel } from '../../src/knowledge/model.ts';
import { embeddingText, normalise } from '../../src/knowledge/embeddings.ts';
import { stubVector } from '../helpers/embeddingsStub.ts';
import { dequantise } from '../../src/knowledge/vectorCodec.ts';
import { liveSegments, searchKnowledge } from '../../src/knowledge/service.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';

const env: Record<string, string> = { EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: '2', OPENAI_API_KEY: 'sk-stub' };
const logLines: string[] = [];
const logger = createLogger('warn', new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
let stub: EmbeddingsStub;
beforeAll(async () => {
  stub = await startEmbeddingsStub();
  env.OPENAI_BASE_URL = stub.url;
});
afterAll(() => stub?.close());

const CAR = '# Car care\n\nChange the engine oil of your car every 10,000 km.';
const KETTLE = '# Kettles\n\nQuasar kettles boil water in ninety seconds.';
const RETURNS = '# Returns\n\nZucchini blenders can be returned within 30 days.\n\n## Refunds\n\nRefunds reach your card in five days.';
const SEMANTIC = 'automobile upkeep';
/** Shares no term with any row; its stub vector is near every chunk but above none by 0.3. */
const UNRELATED = 'Which planet has the most moons?';

describe('hybrid retrieval with an embedding model', () => {
  const rt: TestRuntime = useTestRuntime({ env, logger });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let dataSourceId: string;
  const embedded = () => stub.requests.flatMap((r) => r.input);
  const sync = async () => expect((await syncAndWait(api, dataSourceId)).state).toBe('synced');

  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
    dataSourceId = await createDataSource(api);
    const rows = [
      { name: 'car.md', content: CAR },
      { name: 'kettle.md', content: KETTLE },
      { name: 'returns.md', content: RETURNS },
    ];
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: rows }).expect(200);
  });

  it('embeds every chunk at sync in batches and stores the vectors with their chunks', async () => {
    await sync();
    expect(stub.requests.every((r) => r.model === 'embed-a' && r.input.length <= 2)).toBe(true);
    const manifest = await readCommitted(dataSourceId);
    const groups = (await Promise.all([...new Set(Object.values(manifest.rows).map((r) => r.p))].map(readPack))).flat();
    const chunks = groups.reduce((n, g) => n + g.chunks.length, 0);
    expect(chunks).toBe(4);
    expect(embedded()).toHaveLength(chunks);
    for (const g of groups) {
      expect(g.embedding?.model).toBe('embed-a');
      expect(g.embedding!.stored.codes.length).toBe(g.chunks.length * 64);
      expect(g.embedding!.stored.scales.length).toBe(g.chunks.length);
    }
    expect(Object.values(manifest.rows).every((r) => r.e === 'embed-a')).toBe(true);
  });

  it('loads the stored integers into the segment as they are, scoring them as their decoded Float32 values', async () => {
    const manifest = await readCommitted(dataSourceId);
    const groups = (await Promise.all([...new Set(Object.values(manifest.rows).map((r) => r.p))].sort().map(readPack))).flat();
    const [segment] = await liveSegments(tenant.botId);
    const vectors = segment!.vectors!;
    // In the order the segment adds them: its packs sorted, each pack's groups as stored.
    expect(Array.from(vectors.codes)).toEqual(groups.flatMap((g) => Array.from(g.embedding!.stored.codes)));
    expect(Array.from(vectors.scales)).toEqual(groups.flatMap((g) => Array.from(g.embedding!.stored.scales)));
    const decoded = groups.flatMap((g) => Array.from(dequantise(g.embedding!.stored.codes, g.embedding!.stored.scales)));
    const query = normalise(stubVector(SEMANTIC));
    for (let doc = 0; doc < vectors.size; doc++) {
      const float = query.reduce((sum, x, j) => sum + x * decoded[doc * 64 + j]!, 0);
      expect(Math.abs(vectors.dot(doc, query) - float)).toBeLessThan(1e-6);
    }
  });

  it('finds a row by meaning that BM25 alone cannot find', async () => {
    expect(await searchKnowledge(tenant.botId, SEMANTIC)).toEqual([]);
    const res = await api('post', '/message', { message: SEMANTIC }).expect(200);
    expect(res.body.response).toContain('Change the engine oil');
    const car = (await rowIds(api, dataSourceId)).find((r) => r.name === 'car.md')!;
    expect(res.body.sources[0]).toEqual({ rowId: car.id, dataSourceId });
    // The question itself was embedded once, as one request.
    expect(stub.requests.at(-1)!.input).toEqual([SEMANTIC]);
  });

  it('says "I don\'t know", with no sources, when no chunk is above the similarity floor', async () => {
    expect(rt.config.EMBEDDING_MIN_SIMILARITY).toBe(0.3);
    const before = stub.requests.length;
    const res = await api('post', '/message', { message: UNRELATED }).expect(200);
    expect(res.body.response).toBe(NO_ANSWER);
    expect(res.body.sources).toEqual([]);
    // It was a hybrid query (the question was embedded), not a fallback to BM25.
    expect(stub.requests.slice(before)).toEqual([{ model: 'embed-a', input: [UNRELATED], encodingFormat: 'base64' }]);
    // The paraphrase is still found at the same floor.
    expect((await api('post', '/message', { message: SEMANTIC }).expect(200)).body.sources).toHaveLength(1);
    // Without the floor the nearest neighbours would answer the unrelated question.
    rt.config.EMBEDDING_MIN_SIMILARITY = -1;
    try {
      const floorless = await api('post', '/message', { message: UNRELATED }).expect(200);
      expect(floorless.body.response).not.toBe(NO_ANSWER);
      expect(floorless.body.sources.length).toBeGreaterThan(0);
    } finally {
      rt.config.EMBEDDING_MIN_SIMILARITY = 0.3;
    }
  });

  it('embeds only the changed row on the next sync', async () => {
    const kettle = (await rowIds(api, dataSourceId)).find((r) => r.name === 'kettle.md')!;
    await api('put', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: kettle.id, name: 'kettle.md', content: `${KETTLE} Descale monthly.` }] }).expect(200);
    const before = embedded().length;
    await sync();
    expect(embedded().slice(before)).toEqual(['Kettles\n\n# Kettles\n\nQuasar kettles boil water in ninety seconds. Descale monthly.']);
  });

  it('falls back to BM25 with a log line when the provider fails during a chat', async () => {
    stub.failWith = 503;
    try {
      const res = await api('post', '/message', { message: 'How fast do quasar kettles boil?' }).expect(200);
      expect(res.body.response).toContain('ninety seconds');
      expect(logLines.some((l) => l.includes('query embedding failed; answering from BM25 alone') && l.includes('embed-a'))).toBe(true);
    } finally {
      stub.failWith = null;
    }
  });

  it('ends a sync in sync_error with the reason when the provider fails', async () => {
    const car = (await rowIds(api, dataSourceId)).find((r) => r.name === 'car.md')!;
    await api('put', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: car.id, name: 'car.md', content: `${CAR} Check the tyres.` }] }).expect(200);
    stub.failWith = 500;
    try {
      expect((await syncAndWait(api, dataSourceId)).state).toBe('sync_error');
      const ds = await DataSourceModel.findById(dataSourceId).lean();
      expect(ds!.lastError).toMatch(/embedding model embed-a failed: 500/);
    } finally {
      stub.failWith = null;
    }
    // The knowledge synced before still answers, vectors included.
    expect((await api('post', '/message', { message: SEMANTIC }).expect(200)).body.response).toContain('Change the engine oil');
    await sync();
  });

  it('answers from BM25 after a model change until a background sync has re-embedded every row', async () => {
    rt.config.EMBEDDING_MODEL = 'embed-b';
    const before = stub.requests.length;
    expect((await api('post', '/message', { message: SEMANTIC }).expect(200)).body.response).toBe(NO_ANSWER);
    expect(stub.requests.length).toBe(before); // old-model vectors are not compared with a new-model query
    // What a worker does when it starts with the new model.
    expect(await syncStaleEmbeddings(rt.runtime.ctx)).toEqual([dataSourceId]);
    expect((await waitForSyncEnd(api, dataSourceId)).state).toBe('synced');
    expect(await syncStaleEmbeddings(rt.runtime.ctx)).toEqual([]);
    const reembedded = stub.requests.slice(before);
    expect(reembedded.every((r) => r.model === 'embed-b')).toBe(true);
    expect(reembedded.flatMap((r) => r.input)).toHaveLength(4);
    expect((await api('post', '/message', { message: SEMANTIC }).expect(200)).body.response).toContain('Change the engine oil');
  });

  it('keeps hybrid retrieval for a source with a row of no chunks, and does not embed that row again', async () => {
    // A bare heading leaves no chunk (datasources/chunking.ts).
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'empty.md', content: '# Empty' }] }).expect(200);
    await sync();
    expect(Object.values((await readCommitted(dataSourceId)).rows).every((r) => r.e === 'embed-b')).toBe(true);
    expect(await syncStaleEmbeddings(rt.runtime.ctx)).toEqual([]);
    expect((await api('post', '/message', { message: SEMANTIC }).expect(200)).body.response).toContain('Change the engine oil');
  });
});
