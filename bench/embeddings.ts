// What embeddings add to a sync: the same rows synced without an embedding model and with one
// (an OpenAI-compatible server in its own process that answers at once, or after
// BENCH_PROVIDER_LATENCY_MS per request), alternating, so the sync's own extra work = (sync with
// embeddings - the provider's wall time) / sync without - 1. Goal < 10 %.
import fs from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { seededText } from './lib/text.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createRelayClient } from '../src/client/index.ts';
import { syncAndWait } from './lib/sync.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/**
 * Without BENCH_POLL_MS a sync's end is its sync.success event in this process (the sync runs here):
 * no status poll competes with the sync for the cores (a 20 ms poll cost ~0.18 s of CPU per second
 * in each process) and no poll interval rounds the time up. BENCH_POLL_MS=20 polls the data
 * source's status over the API instead, as the figures before 2026-11-27 09:00 did.
 */
const POLL_MS = process.env.BENCH_POLL_MS ? Number(process.env.BENCH_POLL_MS) : null;

const server: ChildProcess = fork(new URL('./lib/embeddingsServer.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });
const stubUrl = await new Promise<string>((resolve) => server.once('message', (m: { url: string }) => resolve(m.url)));
const report = () =>
  new Promise<{ busyMs: number; requests: number; inputs: number }>((resolve) => {
    server.once('message', resolve as never);
    server.send({ report: true });
  });

// EMBEDDING_BATCH_SIZE as the server reads it (default 64): each request costs the sync CPU of its own, whatever its size.
// The job loop polls at the service's default (1 s) unless JOB_PROCESS_EVERY_MS says otherwise: a
// sync started over the API starts at once either way (in-process notification), and polling at
// 50 ms, as this bench did until session 30, cost ~0.07 s/s of this process and ~0.1 s/s of the
// database beside the sync, more the longer the sync ran.
const passed = (name: string) => (process.env[name] ? { [name]: process.env[name]! } : {});
// Started with the model configured, as a worker with EMBEDDING_MODEL starts (the plain syncs turn it off).
const bench = await startBenchRuntime({ env: { ...passed('JOB_PROCESS_EVERY_MS'), ...passed('EMBEDDING_BATCH_SIZE'), EMBEDDING_MODEL: 'bench-embedding', OPENAI_BASE_URL: stubUrl } });
const tenant = await provisionTenant({ plan: 'enterprise' });
const api = createRelayClient({ baseUrl: bench.baseUrl, channelId: tenant.channelId, secretKey: tenant.secretKey, timeoutMs: 10 * 60_000 });
console.log(`embeddings sync benchmark — ${machineLine()}`);

const { random, words } = seededText(7);
const markdown = (i: number) => {
  let text = `# Product ${i}\n\n`;
  for (let s = 0; s < 3; s++) text += `## Section ${s}\n\n${Array.from({ length: 6 }, () => `${words(8 + Math.floor(random() * 10))}.`).join(' ')}\n\n`;
  return text;
};
const rows = Array.from({ length: ROWS }, (_, i) => ({ name: `product-${i}.md`, content: markdown(i) }));

/** Per sync: CPU seconds of this process (the sync runs here) and of the database; load moves these far less than wall time. */
const cpu: Record<'plain' | 'embedded', { relay: number[]; main: number[]; db: number[] }> = { plain: { relay: [], main: [], db: [] }, embedded: { relay: [], main: [], db: [] } };
/** CPU seconds of this process's main thread so far (Linux schedstat, ns): the sync's critical path, apart from the embedding thread and GC. */
const mainThreadCpu = () => Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
async function syncSeconds(dataSourceId: string, mode: 'plain' | 'embedded'): Promise<number> {
  const [relayBefore, mainBefore, dbBefore] = [process.cpuUsage(), mainThreadCpu(), bench.dbCpuMs()];
  const seconds = (POLL_MS === null ? await syncUntilEvent(dataSourceId) : (await syncAndWait(api, dataSourceId, POLL_MS)).totalMs) / 1000;
  const relay = process.cpuUsage(relayBefore);
  cpu[mode].relay.push((relay.user + relay.system) / 1e6);
  cpu[mode].main.push(mainThreadCpu() - mainBefore);
  cpu[mode].db.push((bench.dbCpuMs() - dbBefore) / 1000);
  return seconds;
}
const syncEnded = new Map<string, (succeeded: boolean) => void>();
bench.runtime.ctx.events.subscribe(async (event) => {
  if (event.type === 'sync.success' || event.type === 'sync.failure') syncEnded.get(event.dataSourceId ?? '')?.(event.type === 'sync.success');
});
/** Starts a sync over the API and waits for its end event; ms from the start call. */
async function syncUntilEvent(dataSourceId: string): Promise<number> {
  const started = performance.now();
  const ended = new Promise<boolean>((resolve) => syncEnded.set(dataSourceId, resolve));
  await api.dataSources.sync(dataSourceId);
  if (!(await ended)) throw new Error(`sync of ${dataSourceId} failed`);
  return performance.now() - started;
}
async function freshSource(): Promise<string> {
  const id = (await api.dataSources.create()).id;
  for (let i = 0; i < rows.length; i += 100) await api.rows.add(id, rows.slice(i, i + 100));
  return id;
}
function embeddings(on: boolean) {
  Object.assign(bench.config, on ? { EMBEDDING_MODEL: 'bench-embedding', OPENAI_BASE_URL: stubUrl } : { EMBEDDING_MODEL: undefined, OPENAI_BASE_URL: undefined });
}

const plain: number[] = [];
const embedded: number[] = [];
const provider: number[] = [];
let inputs = 0;
let requests = 0;
let lastSynced = '';
for (let round = 0; round < ROUNDS; round++) {
  const [a, b] = [await freshSource(), await freshSource()];
  embeddings(false);
  plain.push(await syncSeconds(a, 'plain'));
  embeddings(true);
  await report();
  embedded.push(await syncSeconds(b, 'embedded'));
  const r = await report();
  provider.push(r.busyMs / 1000);
  inputs = r.inputs;
  requests = r.requests;
  lastSynced = b;
}
// What waiting alone costs per second (the job loop, and the status poll with BENCH_POLL_MS; no sync running):
// it comes on top of each sync's CPU in proportion to its wall time, so a slower sync's CPU looks
// larger by that much; the net lines take it off.
const idle = await (async () => {
  const [relayBefore, mainBefore, dbBefore, started] = [process.cpuUsage(), mainThreadCpu(), bench.dbCpuMs(), performance.now()];
  while (performance.now() - started < 2_000) {
    if (POLL_MS !== null) await api.dataSources.get(lastSynced);
    await new Promise((r) => setTimeout(r, POLL_MS ?? 100));
  }
  const relay = process.cpuUsage(relayBefore);
  const seconds = (performance.now() - started) / 1000;
  return { relay: (relay.user + relay.system) / 1e6 / seconds, main: (mainThreadCpu() - mainBefore) / seconds, db: (bench.dbCpuMs() - dbBefore) / 1000 / seconds };
})();
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const own = embedded.map((t, i) => t - provider[i]!);
const latency = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 0);
console.log(
  `${ROWS} rows, ${inputs} chunks embedded per sync in ${requests} requests (batches from ${bench.config.EMBEDDING_BATCH_SIZE}, growing while the provider answers fast), ${process.env.BENCH_VECTOR_DIMS ?? 384}-dim vectors; ` +
    `provider answers ${latency ? `after ${latency} ms` : 'at once'}; ${ROUNDS} rounds, medians`,
);
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)} s`;
// The floor: how far the plain sync alone moves from run to run, beside the goal's 10 %.
const scatter = (100 * (Math.max(...plain) - Math.min(...plain))) / median(plain);
console.log(`  baseline: sync without embeddings       ${median(plain).toFixed(2)} s (${range(plain)}: its own scatter ${scatter.toFixed(0)} % of the median)`);
console.log(`  sync with embeddings                    ${median(embedded).toFixed(2)} s (${range(embedded)})`);
console.log(`  of which the provider (a request open)  ${median(provider).toFixed(2)} s`);
console.log(`  sync's own time with embeddings         ${median(own).toFixed(2)} s (${range(own)}) = ${((100 * median(own)) / median(plain) - 100).toFixed(1)} % over the baseline (goal < 10 %)`);
const cpuLine = (what: 'relay' | 'main' | 'db', net: boolean) => {
  const take = (mode: 'plain' | 'embedded', i: number) => cpu[mode][what][i]! - (net ? idle[what] * (mode === 'plain' ? plain : embedded)[i]! : 0);
  const [off, on] = [median(plain.map((_, i) => take('plain', i))), median(embedded.map((_, i) => take('embedded', i)))];
  return `${off.toFixed(2)} s without, ${on.toFixed(2)} s with (+${(100 * (on / off - 1)).toFixed(0)} %)`;
};
console.log(`  CPU of this process (the sync)          ${cpuLine('relay', false)}`);
console.log(`  CPU of its main thread                  ${cpuLine('main', false)}`);
console.log(`  CPU of the database                     ${cpuLine('db', false)}`);
console.log(`  waiting alone (job loop every ${bench.config.JOB_PROCESS_EVERY_MS} ms${POLL_MS === null ? '' : ', status poll'}) costs ${(1000 * idle.relay).toFixed(0)} ms/s of this process and ${(1000 * idle.db).toFixed(0)} ms/s of the database; without it:`);
console.log(`  CPU of this process, net of polling     ${cpuLine('relay', true)}`);
console.log(`  CPU of its main thread, net of polling  ${cpuLine('main', true)}`);
console.log(`  CPU of the database, net of polling     ${cpuLine('db', true)}`);
server.send({ close: true });
await bench.close();
