// Chat without a model: retrieval over 100,000 synced chunks, time to the first SSE byte of a 2.0
// streamed /message, and non-streamed /message throughput, each against a same-run baseline.
import http from 'node:http';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { formatLoad, percentile, runLoad } from './lib/load.ts';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { getBot, provisionTenant } from '../src/platform/service.ts';
import { createRelayClient } from '../src/client/index.ts';
import { secretMatchesHash } from '../src/security/secrets.ts';
import { commitKnowledge, emptyManifest } from '../src/knowledge/store.ts';
import { searchSegments } from '../src/knowledge/search.ts';
import { liveSegments, searchKnowledge } from '../src/knowledge/service.ts';
import { normalise, type Embedder } from '../src/knowledge/embeddings.ts';
import { nearestIn, SegmentVectors } from '../src/knowledge/vectors.ts';
import { pack12, quantise, unpack12 } from '../src/knowledge/vectorCodec.ts';
import { TopK } from '../src/knowledge/topK.ts';
import { FUSION_CANDIDATES } from '../src/knowledge/fusion.ts';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 200);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TTFB_SAMPLES = Number(process.env.BENCH_TTFB_SAMPLES ?? 200);
const VECTOR_DIMS = Number(process.env.BENCH_VECTOR_DIMS ?? 384);
/** BENCH_ONLY=retrieval stops after the retrieval figures. */
const ONLY_RETRIEVAL = process.env.BENCH_ONLY === 'retrieval';

const bench = await startBenchRuntime({ worker: false, env: { PLAN_LIMITS_JSON: JSON.stringify({ standard: { chatTokens: 1_000_000_000 } }) } });
const tenant = await provisionTenant({ team: 'bench', bot: 'bench' });
console.log(`chat benchmark — ${machineLine()}`);

// Retrieval seeds 100,000 synced chunks through the knowledge index's own write function.

// Synthetic corpus: words drawn from a 5,000-word vocabulary with a skewed distribution, so common
// words match many chunks and rare ones few, as in real documentation.
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const word = () => `w${Math.floor(5000 * random() ** 2.5)}`;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
const questions = Array.from({ length: QUESTIONS }, () => `How do I ${sentence(5)}?`);

async function seedSyncedChunks(botId: string, chunks: number): Promise<number> {
  const rowsPerSource = 1_000;
  const chunksPerRow = 10;
  let seeded = 0;
  for (let source = 0; seeded < chunks; source++) {
    const dataSourceId = randomUUID();
    const processed = Array.from({ length: rowsPerSource }, () => ({
      rowId: randomUUID(),
      hash: randomUUID().replaceAll('-', ''),
      chunks: Array.from({ length: chunksPerRow }, (_, i) => ({ heading: `Section ${i}`, text: sentence(60), tokens: 80 })),
    }));
    await commitKnowledge({ botId, dataSourceId, run: 1, previous: emptyManifest(), processed, liveRowIds: processed.map((r) => r.rowId), now: new Date() });
    seeded += rowsPerSource * chunksPerRow;
  }
  return seeded;
}

async function timeEach(fn: (i: number) => Promise<unknown>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b);
}
const stats = (t: number[]) => `p50 ${percentile(t, 50).toFixed(2)} ms  p99 ${percentile(t, 99).toFixed(2)} ms`;

// 1. Retrieval: searchKnowledge as the chat calls it (with the bot's knowledge stamp, so the segment
// list is reused until a commit changes it) and without a stamp (the list read per question),
// against the raw index query alone (BM25 over the same segments already in memory).
{
  const started = Date.now();
  const seeded = await seedSyncedChunks(tenant.botId, CHUNKS);
  const segments = await liveSegments(tenant.botId);
  console.log(`seeded and loaded ${seeded} synced chunks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const { knowledgeStamp } = await getBot(tenant.botId);
  const search = (i: number, opts: { embedder?: Embedder } = {}) => searchKnowledge(tenant.botId, questions[i % QUESTIONS]!, { limit: 5, knowledgeStamp, ...opts });
  await timeEach(search, 20);
  // Interleaved, so load drift hits all three alike.
  const rawTimes: number[] = [];
  const searchTimes: number[] = [];
  const unstampedTimes: number[] = [];
  for (let i = 0; i < QUESTIONS; i++) {
    rawTimes.push(...(await timeEach(async () => searchSegments(segments, questions[i]!, 5), 1)));
    searchTimes.push(...(await timeEach(() => search(i), 1)));
    unstampedTimes.push(...(await timeEach(() => searchKnowledge(tenant.botId, questions[i]!, { limit: 5 }), 1)));
  }
  for (const t of [rawTimes, searchTimes, unstampedTimes]) t.sort((a, b) => a - b);
  const hits = (await search(0)).length;
  console.log(`retrieval over ${seeded} synced chunks (${QUESTIONS} questions of 5 words, ${hits} hits for the first)`);
  console.log(`  baseline raw index query (BM25 in memory) ${stats(rawTimes)}`);
  console.log(`  searchKnowledge, bot's stamp (chat)       ${stats(searchTimes)}   ratio p99 ${(percentile(searchTimes, 99) / percentile(rawTimes, 99)).toFixed(2)}x`);
  console.log(`  searchKnowledge, segment list read        ${stats(unstampedTimes)}   ratio p99 ${(percentile(unstampedTimes, 99) / percentile(rawTimes, 99)).toFixed(2)}x`);

  // Hybrid: the same segments given vectors (VECTOR_DIMS, normalised, clustered around 200 topics as
  // real embeddings are), queried through searchKnowledge with an in-process embedder, so the
  // figure is Relay's own work (keyword + vector ranking and fusion) without the provider's time.
  const dims = VECTOR_DIMS;
  const topics = Array.from({ length: 200 }, () => Array.from({ length: dims }, () => random() - 0.5));
  const near = (topic: number) => normalise(topics[topic % topics.length]!.map((x) => x + (random() - 0.5) * 0.8));
  // Searched as the store gives them back: 12 bits per dimension and a scale (vectorCodec.ts).
  const originals: Float32Array[] = [];
  for (const segment of segments) {
    const data = new Float32Array(segment.size * dims);
    for (let i = 0; i < segment.size; i++) data.set(near(i), i * dims);
    originals.push(data);
    const stored = quantise(data, dims, 12);
    segment.vectors = new SegmentVectors('bench-embedding', dims, { codes: unpack12(pack12(stored.codes), data.length), scales: stored.scales });
  }
  const queryVectors = questions.map((_, i) => near(i));
  // Recall@10 of the vector search as fusion.ts asks it (2 × FUSION_CANDIDATES nearest), over the
  // vectors as the segments hold them (the stored 12-bit integers), against an exhaustive Float32
  // scan of the originals.
  const RECALL_QUERIES = Math.min(QUESTIONS, 50);
  const floatDot = (data: Float32Array, doc: number, query: Float32Array) => {
    let sum = 0;
    for (let j = 0; j < dims; j++) sum += data[doc * dims + j]! * query[j]!;
    return sum;
  };
  const recall = (tables: SegmentVectors[]) => {
    let found = 0;
    for (let q = 0; q < RECALL_QUERIES; q++) {
      const truth = new TopK(10);
      originals.forEach((data, i) => {
        for (let doc = 0; doc < data.length / dims; doc++) truth.push(floatDot(data, doc, queryVectors[q]!), i, doc);
      });
      const want = new Set(truth.sorted().map(([, i, doc]) => `${i}:${doc}`));
      found += nearestIn(tables, queryVectors[q]!, 2 * FUSION_CANDIDATES).slice(0, 10).filter(([i, doc]) => want.has(`${i}:${doc}`)).length;
    }
    return (found / (10 * RECALL_QUERIES)).toFixed(3);
  };
  console.log(`  vector recall@10 against an exhaustive Float32 scan (${RECALL_QUERIES} queries): stored (12-bit) vectors ${recall(segments.map((s) => s.vectors!))}`);
  let asked = 0;
  // No similarity floor: every vector candidate reaches the fusion, the costliest case.
  const embedder: Embedder = { model: 'bench-embedding', batchSize: 64, minSimilarity: -1, embed: async (texts) => texts.map(() => queryVectors[asked++ % QUESTIONS]!), embedStored: () => Promise.reject(new Error('the bench embeds questions only')) };
  await timeEach((i) => search(i, { embedder }), 20);
  const hybridTimes = await timeEach((i) => search(i, { embedder }), QUESTIONS);
  console.log(`  searchKnowledge, hybrid (${dims}-dim vectors) ${stats(hybridTimes)}   ratio p99 ${(percentile(hybridTimes, 99) / percentile(searchTimes, 99)).toFixed(2)}x of BM25 alone`);
}

if (ONLY_RETRIEVAL) {
  await bench.close();
  process.exit(0);
}

// 2. Time to the first SSE byte of a streamed /message, against the full response of a light
// authenticated chat read on the same server: /messages of a one-message conversation (channel auth,
// the conversation and its transcript by _id).
const prefix = `${bench.baseUrl}/api/public/channels/${tenant.channelId}/2.0`;
const jsonHeaders = { 'content-type': 'application/json', 'x-api-secret-key': tenant.secretKey };
const api = createRelayClient({ baseUrl: bench.baseUrl, channelId: tenant.channelId, secretKey: tenant.secretKey });
const quiet = (await api.chat.startConversation()).conversationId;
const baselineBody = JSON.stringify({ conversationId: quiet, limit: 1 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function firstByte(path: string, body: object, untilEnd: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const started = process.hrtime.bigint();
    const req = http.request(`${prefix}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-api-secret-key': tenant.secretKey } }, (res) => {
      let first: number | undefined;
      res.on('data', () => (first ??= Number(process.hrtime.bigint() - started) / 1e6));
      res.on('end', () => resolve(untilEnd ? Number(process.hrtime.bigint() - started) / 1e6 : first!));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
const ttfbOf = (i: number) => firstByte('/message', { message: questions[i % QUESTIONS], stream: true }, false);
const baseOf = () => firstByte('/messages', { conversationId: quiet, limit: 1 }, true);
await timeEach(ttfbOf, 20);
const baseTimes: number[] = [];
const ttfbTimes: number[] = [];
for (let i = 0; i < TTFB_SAMPLES; i++) {
  baseTimes.push(await baseOf());
  ttfbTimes.push(await ttfbOf(i));
}
baseTimes.sort((a, b) => a - b);
ttfbTimes.sort((a, b) => a - b);
console.log(`time to first SSE byte (${TTFB_SAMPLES} sequential streamed /message)`);
console.log(`  baseline /messages full reply       ${stats(baseTimes)}`);
console.log(`  /message stream, first byte         ${stats(ttfbTimes)}   ratio p50 ${(percentile(ttfbTimes, 50) / percentile(baseTimes, 50)).toFixed(2)}x`);
agent.destroy();

// 3. Non-streamed /message throughput on 32 conversations, against the same /messages read.
const conversations: string[] = [];
for (let i = 0; i < 32; i++) conversations.push((await api.chat.startConversation()).conversationId);
const headers = jsonHeaders;
const messageBody = (i: number) => JSON.stringify({ message: questions[i % QUESTIONS], conversationId: conversations[i % conversations.length] });
await runLoad({ url: `${prefix}/messages`, method: 'POST', headers, body: baselineBody, concurrency: CONCURRENCY, requests: 200 });
await runLoad({ url: `${prefix}/message`, method: 'POST', headers, body: messageBody, concurrency: CONCURRENCY, requests: 200 });
const baseLoad = await runLoad({ url: `${prefix}/messages`, method: 'POST', headers, body: baselineBody, concurrency: CONCURRENCY, requests: REQUESTS, maxSeconds: 60 });
const messageLoad = await runLoad({ url: `${prefix}/message`, method: 'POST', headers, body: messageBody, concurrency: CONCURRENCY, requests: REQUESTS, maxSeconds: 90 });

// Raw baseline: node:http + the raw driver doing the same database work as a grounded /message on an
// existing conversation (channel, bot and team reads, key check, conversation and transcript reads,
// one $push of the user message and reply, one $inc of the team's tokens), with no reply logic.
const client = await MongoClient.connect(bench.uri);
const db = client.db();
const raw = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: string; conversationId: string };
    const channel = await db.collection('apichannels').findOne({ id: tenant.channelId });
    if (!channel || !secretMatchesHash(req.headers['x-api-secret-key'] as string, channel.secretHash)) return res.writeHead(403).end();
    await Promise.all([db.collection('bots').findOne({ id: channel.botId }), db.collection('teams').findOne({ id: channel.teamId })]);
    const conversation = await db.collection<{ _id: string }>('conversations').findOne({ _id: body.conversationId, botId: channel.botId });
    if (!conversation) return res.writeHead(404).end();
    await db.collection<{ _id: string }>('transcripts').findOne({ _id: body.conversationId });
    const now = new Date();
    const reply = `baseline reply to ${body.message}`;
    const messages = [
      { id: randomUUID(), role: 'user', message: body.message, createdAt: now },
      { id: randomUUID(), role: 'assistant', message: reply, sources: [], createdAt: now },
    ];
    await Promise.all([
      db.collection<{ _id: string }>('transcripts').updateOne({ _id: body.conversationId }, { $push: { messages: { $each: messages } } as never }),
      db.collection('teams').updateOne({ id: channel.teamId }, { $inc: { 'usage.chatTokens': 20 } }),
    ]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, conversationId: body.conversationId, response: reply }));
  });
});
await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
const rawUrl = `http://127.0.0.1:${(raw.address() as { port: number }).port}/message`;
await runLoad({ url: rawUrl, method: 'POST', headers, body: messageBody, concurrency: CONCURRENCY, requests: 200 });
const rawLoad = await runLoad({ url: rawUrl, method: 'POST', headers, body: messageBody, concurrency: CONCURRENCY, requests: REQUESTS, maxSeconds: 90 });

console.log(`non-streamed /message (${CONCURRENCY} connections)`);
console.log(`  ${formatLoad('baseline node:http + raw driver', rawLoad)}`);
console.log(`  ${formatLoad('baseline /messages (read)', baseLoad)}`);
console.log(`  ${formatLoad('/message (grounded reply)', messageLoad)}`);
console.log(`  ratio /message / raw-driver baseline: ${(messageLoad.rps / rawLoad.rps).toFixed(2)}x req/s; / read: ${(messageLoad.rps / baseLoad.rps).toFixed(2)}x`);

raw.close();
await client.close();
await bench.close();
