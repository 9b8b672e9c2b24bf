// Data-source sync on FerretDB: a full sync of ROWS rows of ~2 KB markdown against a same-run
// baseline (raw driver insertMany of the very same chunks), a re-sync after editing 1% of rows,
// adding 100 rows per request, listing 1,000 rows in pages of 100, and knowledge search p99 over
// ~100k chunks. Bounded in count and time; loopback only.
import { MongoClient } from 'mongodb';
import { Agent, fetch } from 'undici';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { percentile } from './lib/load.ts';
import { seededText } from './lib/text.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { chunkMarkdown } from '../src/datasources/chunking.ts';
import { searchKnowledge } from '../src/knowledge/service.ts';
import { createRelayClient, RelayApiError } from '../src/client/index.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const SEARCH_ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 10_000);
const DEADLINE = Date.now() + 15 * 60_000;
const progress = (line: string) => process.stderr.write(`[sync bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const { random, words } = seededText(42);
const sentence = () => `${words(8 + Math.floor(random() * 10))}.`;
function markdown(i: number, sections = 3, bytes = 2048): string {
  let text = `# Product ${i}\n\n`;
  for (let s = 0; s < sections; s++) {
    text += `## Section ${s} of item ${i}\n\n`;
    const target = Math.floor(bytes / sections) * (s + 1);
    while (text.length < target) text += `${sentence()} `;
    text += '\n\n';
  }
  return text;
}

const bench = await startBenchRuntime({ env: { JOB_PROCESS_EVERY_MS: '50' } });
const tenant = await provisionTenant({ plan: 'enterprise' });
// A write of 100 rows on a large source can outlast undici's default 300 s header timeout on
// FerretDB (docs/FERRETDB.md), and the client's default 10 s request timeout by far: wait for it,
// so the figure is measured instead of lost.
const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
const patientFetch = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
  fetch(input, { ...init, dispatcher: patient })) as unknown as typeof globalThis.fetch;
const api = createRelayClient({ baseUrl: bench.baseUrl, channelId: tenant.channelId, secretKey: tenant.secretKey, fetch: patientFetch, timeoutMs: 30 * 60_000 });
/** Runs one client call and returns its result with its latency; a refusal fails the bench under `label`. */
async function timed<T>(label: string, request: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  try {
    const value = await request();
    return { value, ms: performance.now() - started };
  } catch (err) {
    if (err instanceof RelayApiError) throw new Error(`${label}: ${err.status} ${err.code} ${err.message} ${JSON.stringify(err.details)}`, { cause: err });
    throw err;
  }
}
const stats = (ms: number[], seconds: number) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: ms.length, rps: ms.length / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};
async function syncAndWait(dataSourceId: string): Promise<number> {
  const started = performance.now();
  await timed('sync start', () => api.dataSources.sync(dataSourceId));
  for (;;) {
    const { value: ds } = await timed('sync poll', () => api.dataSources.get(dataSourceId));
    if (ds.state === 'synced') return (performance.now() - started) / 1000;
    if (ds.state === 'sync_error' || Date.now() > DEADLINE) throw new Error(`sync did not finish: ${ds.state}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
async function addRows(dataSourceId: string, rows: Array<{ name: string; content: string }>): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < rows.length && Date.now() < DEADLINE; i += 100) {
    const { ms } = await timed('add rows', () => api.rows.add(dataSourceId, rows.slice(i, i + 100)));
    latencies.push(ms);
  }
  return latencies;
}

// 1. Add ROWS rows, 100 per request.
const dataSourceId = (await timed('create data source', () => api.dataSources.create())).value.id;
const rows = Array.from({ length: ROWS }, (_, i) => ({ name: `product-${i}.md`, content: markdown(i) }));
const bytes = rows.reduce((n, r) => n + Buffer.byteLength(r.content), 0);
let started = performance.now();
const addLatencies = await addRows(dataSourceId, rows);
const add = stats(addLatencies, (performance.now() - started) / 1000);

progress('rows added');
// 2. List 1,000 rows in pages of 100 (three walks).
const listLatencies: number[] = [];
started = performance.now();
for (let walk = 0; walk < 3; walk++) {
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const res = await timed('list rows', () => api.rows.list(dataSourceId, { limit: 100, cursor }));
    listLatencies.push(res.ms);
    cursor = res.value.pagination.last;
  }
}
const list = stats(listLatencies, (performance.now() - started) / 1000);

progress('listing done');
// 3. Full sync, then the baseline: the same chunks inserted with the raw driver.
const fullSeconds = await syncAndWait(dataSourceId);
const chunkDocs = rows.flatMap((r, i) => chunkMarkdown(r.content).map((c) => ({ dataSourceId, rowId: `row-${i}`, heading: c.heading, text: c.text, tokens: c.tokens })));
const client = await MongoClient.connect(bench.uri);
const baselineCollection = client.db().collection('benchBaselineChunks');
started = performance.now();
for (let i = 0; i < chunkDocs.length; i += 1000) await baselineCollection.insertMany(chunkDocs.slice(i, i + 1000), { ordered: false });
const baselineSeconds = (performance.now() - started) / 1000;

progress('full sync and baseline done');
// 4. Edit 1% of the rows (one request) and re-sync.
const listed = (await timed('list rows', () => api.rows.list(dataSourceId, { limit: 100 }))).value;
const edits = listed.items.slice(0, Math.max(1, Math.floor(ROWS / 100))).map((r, j) => ({ id: r.id, name: r.name, content: markdown(ROWS + j) }));
progress('editing');
const editRes = await timed('edit', () => api.rows.update(dataSourceId, edits));
progress(`edited ${edits.length} rows in one request: ${(editRes.ms / 1000).toFixed(1)} s`);
const resyncSeconds = await syncAndWait(dataSourceId);
const ds = (await timed('get data source', () => api.dataSources.get(dataSourceId))).value;

progress('re-sync done');
// 5. Search over ~100k chunks: a second source whose rows hold ten short sections each.
const searchSource = (await timed('create data source', () => api.dataSources.create())).value.id;
const searchRows = Array.from({ length: SEARCH_ROWS }, (_, i) => ({ name: `faq-${i}.md`, content: markdown(i, 10, 2048) }));
await addRows(searchSource, searchRows);
await syncAndWait(searchSource);
const searchSync = (await timed('get data source', () => api.dataSources.get(searchSource))).value;
started = performance.now();
await searchKnowledge(tenant.botId, 'warranty refund');
const coldSearchMs = performance.now() - started;
const searchLatencies: number[] = [];
started = performance.now();
for (let i = 0; i < 300; i++) {
  const t = performance.now();
  await searchKnowledge(tenant.botId, `${words(3)} product ${i}`, { limit: 5 });
  searchLatencies.push(performance.now() - t);
}
const search = stats(searchLatencies, (performance.now() - started) / 1000);
const { EventModel } = await import('../src/events/model.ts');
const lastResults = (await EventModel.find({ dataSourceId: searchSource, type: 'sync.success' }).lean()).at(-1)?.payload as { results: { totalDocuments: number } } | undefined;

const f = (n: number, d = 1) => n.toFixed(d);
const fullRate = ROWS / fullSeconds;
const baselineRate = ROWS / baselineSeconds;
console.log(`\n## Data sources (bench/sync.ts)\n\n${machineLine()}; FerretDB ${process.env.MONGODB_URI ? '(MONGODB_URI)' : 'v1.24.2 embedded'}`);
console.log(`${ROWS} rows, ${f(bytes / 1e6)} MB of markdown, ${chunkDocs.length} chunks; last re-sync results: ${JSON.stringify(ds.state)}\n`);
console.log('| measure | value |\n| --- | --- |');
console.log(`| full sync (start → synced, polled) | ${f(fullSeconds, 2)} s, ${f(fullRate, 0)} rows/s |`);
console.log(`| baseline: raw insertMany of the same ${chunkDocs.length} chunks | ${f(baselineSeconds, 2)} s, ${f(baselineRate, 0)} rows/s |`);
console.log(`| ratio sync / baseline throughput | **${f(fullRate / baselineRate, 2)}x** |`);
console.log(`| PUT of those ${edits.length} rows (one request) | ${f(editRes.ms / 1000, 1)} s |`);
console.log(`| re-sync after editing ${edits.length} rows (1%) | ${f(resyncSeconds, 2)} s = ${f((100 * resyncSeconds) / fullSeconds)}% of the full sync |`);
console.log(`| add 100 rows per request (${add.n} requests) | ${f(add.rps)} req/s (${f(add.rps * 100, 0)} rows/s), p50 ${f(add.p50)} ms, p99 ${f(add.p99)} ms |`);
console.log(`| list 1,000 rows in pages of 100 (${list.n} requests, source of ${ROWS} rows) | ${f(list.rps)} req/s, p50 ${f(list.p50)} ms, p99 ${f(list.p99)} ms |`);
console.log(`| search over ${lastResults?.results.totalDocuments ?? '?'} + ${chunkDocs.length} chunks (${search.n} queries, warm) | p50 ${f(search.p50, 2)} ms, p99 ${f(search.p99, 2)} ms |`);
console.log(`| first search in a process (loads the index) | ${f(coldSearchMs, 0)} ms |`);
console.log(`| second source sync state | ${searchSync.state} |`);
await client.close();
await bench.close();
