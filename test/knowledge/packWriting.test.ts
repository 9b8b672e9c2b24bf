// A sync writes each pack of chunks (and their vectors) as soon as its rows are ready, while it
// still reads and embeds the rows after them (knowledge/packWriter.ts): each chunk keeps its own
// vector when the provider answers out of order, and a run superseded halfway leaves no pack behind.
// Syncs run through performSync (the job's own entry), against a real embeddings server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { startEmbeddingsStub, stubVector, type EmbeddingsStub } from '../helpers/embeddingsStub.ts';
import { createDataSource } from '../datasources/support.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { performSyncSweep } from '../../src/datasources/sweep.job.ts';
import { DataSourceModel } from '../../src/datasources/model.ts';
import { KnowledgePackModel } from '../../src/knowledge/model.ts';
import { readCommitted, readPack } from '../../src/knowledge/store.ts';
import { embeddingText, normalise } from '../../src/knowledge/embeddings.ts';
import { dequantise } from '../../src/knowledge/vectorCodec.ts';

/** One chunk per row: 1,100 rows fill two packs of 500 chunks and part of a third. */
const ROWS = 1_100;
const BATCH = 64;
const env: Record<string, string> = { EMBEDDING_MODEL: 'embed-a', EMBEDDING_BATCH_SIZE: String(BATCH) };
let stub: EmbeddingsStub;
beforeAll(async () => {
  stub = await startEmbeddingsStub();
  env.OPENAI_BASE_URL = stub.url;
});
afterAll(() => stub?.close());

describe('packs written while a sync goes on', () => {
  const rt = useTestRuntime({ env, worker: false });
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    api = publicApi(rt, await createTenant());
  });

  async function sourceWithRows(): Promise<string> {
    const dataSourceId = await createDataSource(api);
    const rows = Array.from({ length: ROWS }, (_, i) => ({ name: `row-${i}.md`, content: `# Row ${i}\n\nWord${i % 37} and term${i % 53} here.` }));
    for (let i = 0; i < ROWS; i += 100) await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: rows.slice(i, i + 100) }).expect(200);
    return dataSourceId;
  }
  /** The row number a text embeds (rows are written "# Row i"). */
  const rowOf = (text: string) => Number(/\bRow (\d+)\b/.exec(text)![1]);
  /** Texts asked for in the requests from `from` (an index into stub.requests) on: batches grow while the stub answers at once. */
  const inputsSince = (from: number, to = stub.requests.length) => stub.requests.slice(from, to).reduce((n, r) => n + r.input.length, 0);
  async function startSync(dataSourceId: string): Promise<number> {
    await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
    return (await DataSourceModel.findById(dataSourceId).lean())!.syncRun;
  }
  /** Every committed chunk's vector is its own text's, and the source holds no pack its manifest does not name. */
  async function expectOwnVectors(dataSourceId: string) {
    const manifest = await readCommitted(dataSourceId);
    const packIds = Object.keys(manifest.packs).sort();
    expect((await KnowledgePackModel.find({ dataSourceId }, { _id: 1 }).lean()).map((p) => p._id).sort()).toEqual(packIds);
    let chunks = 0;
    for (const packId of packIds) {
      for (const group of await readPack(packId)) {
        expect(group.embedding?.model).toBe('embed-a');
        const vectors = dequantise(group.embedding!.stored.codes, group.embedding!.stored.scales);
        const dims = vectors.length / group.chunks.length;
        group.chunks.forEach((chunk, i) => {
          const expected = normalise(stubVector(embeddingText(chunk)));
          const stored = vectors.subarray(i * dims, (i + 1) * dims);
          expect(stored.reduce((dot, x, j) => dot + x * expected[j]!, 0)).toBeGreaterThan(0.9999);
          chunks++;
        });
      }
    }
    expect(chunks).toBe(ROWS);
  }

  it('stores a pack while the provider is still embedding the rows after it', async () => {
    const dataSourceId = await sourceWithRows();
    const run = await startSync(dataSourceId);
    // Every request that starts with one of the first 640 rows is answered, the rest wait. Chosen by
    // the rows a request holds, not by when it arrives: the four requests in flight can reach the
    // stub in any order, and holding an early row would hold the first pack too.
    const firstRequest = stub.requests.length;
    let held = 0;
    stub.hold = (n) => {
      const input = stub.requests[n - 1]!.input;
      if (rowOf(input[0]!) < 640) return false;
      held += input.length;
      return true;
    };
    const sync = performSync(rt.runtime.ctx, { dataSourceId, run });
    try {
      // 640 or more chunks are back: the first pack (500) is stored, the sync has not finished.
      await waitFor(() => KnowledgePackModel.exists({ dataSourceId, run }), 90_000); // a bound, not a speed check: CI can be several times slower
      expect(inputsSince(firstRequest) - held).toBeLessThan(ROWS);
      expect((await DataSourceModel.findById(dataSourceId).lean())!.state).toBe('syncing');
    } finally {
      stub.hold = null;
      stub.release();
    }
    expect(await sync).toBe('done');
    await expectOwnVectors(dataSourceId);
  });

  it("keeps each chunk's own vector when the provider answers the first batch last", async () => {
    const dataSourceId = await sourceWithRows();
    const run = await startSync(dataSourceId);
    const before = stub.requests.length;
    stub.hold = (n) => rowOf(stub.requests[n - 1]!.input[0]!) === 0;
    const sync = performSync(rt.runtime.ctx, { dataSourceId, run });
    try {
      await waitFor(() => inputsSince(before) === ROWS);
      // Nothing can be stored before the first batch's vectors: packs keep their rows' order.
      expect(await KnowledgePackModel.exists({ dataSourceId, run })).toBeNull();
    } finally {
      stub.hold = null;
      stub.release();
    }
    expect(await sync).toBe('done');
    await expectOwnVectors(dataSourceId);
  });

  it('leaves no pack behind when a newer run supersedes it halfway', async () => {
    const dataSourceId = await sourceWithRows();
    const run = await startSync(dataSourceId);
    let beats = 0;
    // The sweeper restarts the run (as if its heartbeat had gone stale) once 500 rows are read,
    // before the first pack is written; the old run learns of it at its next heartbeat.
    const touch = async () => {
      if (++beats === 2) expect((await performSyncSweep(rt.runtime.ctx, { staleAfterMs: -60_000 })).retried).toContain(dataSourceId);
    };
    const before = stub.requests.length;
    expect(await performSync(rt.runtime.ctx, { dataSourceId, run }, { touch })).toBe('stale');
    expect(inputsSince(before)).toBeGreaterThan(500);
    // Its packs stay until the newer run commits (a second runner of it could still commit them).
    expect(await performSync(rt.runtime.ctx, { dataSourceId, run: run + 1 })).toBe('done');
    expect(await KnowledgePackModel.exists({ dataSourceId, run })).toBeNull();
    await expectOwnVectors(dataSourceId);
  });
});
