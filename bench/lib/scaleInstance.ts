// One Relay instance of bench/scale.ts in a process of its own, so the API's latency and memory are
// its own, not the bench client's or the background intake's. Forked by bench/scale.ts as
// `scaleInstance.ts <dir> [--keep]`: the gateway config lives in <dir>, and with --keep the embedded
// database lives in <dir>/db and outlasts the process (MONGODB_URI, when set, is used instead).
// Answers { ready: baseUrl } once listening, then over IPC:
//   { seed: { scale, shape: 'install' | 'tenant', sinkUrl } } -> { seeded: Seeded }: seeds through
//     the services' own write paths (the public API for rows and gateway intake, the services for
//     tenants, conversations and events), timing each part;
//   { retarget: { botId, webhookId, url } } -> { retargeted }: points a reused install's webhook at
//     this run's sink;
//   { sweeps } -> { sweeps: { ms, found } by sweep }; { stats } -> { stats: { apiRss, dbRss, workerRss } }
//     (bytes; workerRss 0 without a worker process);
//   { walPeak } -> { walPeak: { file, used } }: the WAL's peaks in bytes since the last ask (or seeding part);
//   { gc } -> { gc: GcTally }: this process's GC pauses, CPU and heap used since the last ask;
//   { loop } -> { loop: LoopTally }: its event loop's delay and blocks of 10 ms or more since the last ask;
//   { close } -> stops the runtime and the database, and exits.
// BENCH_WORKER_PROCESS=1 runs the jobs in a second process, `src/main.ts` with ROLE=worker on the
// same database (docker-compose.yml's shape); otherwise one process serves HTTP and runs the jobs (ROLE=all, the embedded default).
import fs from 'node:fs';
import path from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { fetch } from 'undici';
import { startBenchRuntime, type BenchRuntime, type WalSize } from './runtime.ts';
import { ADMIN_TOKEN, GATEWAY_SECRET, clientFor, markdown, patientDispatcher, words, type GcTally, type LoopTally, type Seeded, type TenantKeys } from './scaleTenant.ts';
import { syncAndWait } from './sync.ts';
import { signedGatewayDelivery } from './gatewayDelivery.ts';
import { drained, writeBenchRule } from './gatewayRule.ts';
import { provisionTenant } from '../../src/platform/service.ts';
import type { RelayClient } from '../../src/client/index.ts';
import { startConversation, recordMessages } from '../../src/chat/service.ts';
import { createWebhook, setWebhookEnabled, updateWebhook } from '../../src/webhooks/service.ts';
import { mapLimit } from '../../src/datasources/rows.ts';
import { performSweep as webhookSweep } from '../../src/webhooks/sweep.job.ts';
import { performSweep as gatewaySweep } from '../../src/gateway/sweep.job.ts';
import { performSyncSweep } from '../../src/datasources/sweep.job.ts';

const progress = (line: string) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

/**
 * The WAL's peaks since the last take(), sampled every 100 ms (bench/lib/runtime.ts, walSize): the
 * file's size and the bytes in use. SQLite restarts the WAL only when no reader holds an older
 * snapshot, so a long read shows as a peak in use (docs/FERRETDB.md). A sample can miss a peak
 * shorter than its interval.
 */
const walPeak = {
  file: 0,
  used: 0,
  sample(now: WalSize) {
    this.file = Math.max(this.file, now.file);
    this.used = Math.max(this.used, now.used);
  },
  take(): WalSize {
    const peak = { file: this.file, used: this.used };
    this.file = this.used = 0;
    return peak;
  },
};

async function timedPart<T>(seeding: Pick<Seeded, 'seedingMs' | 'walPeak'>, part: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  walPeak.take();
  const result = await fn();
  seeding.seedingMs[part] = performance.now() - started;
  const wal = (seeding.walPeak[part] = walPeak.take());
  progress(`${part}: ${(seeding.seedingMs[part]! / 1000).toFixed(0)} s, WAL peak ${(wal.used / 2 ** 20).toFixed(1)} MiB in use, file ${(wal.file / 2 ** 20).toFixed(1)} MiB`);
  return result;
}

async function rowIdsOf(api: RelayClient, dataSourceId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const row of api.rows.iterate(dataSourceId, { pageSize: 100 })) ids.push(row.id);
  return ids;
}

async function postGateway(baseUrl: string): Promise<void> {
  const { body, headers } = signedGatewayDelivery(GATEWAY_SECRET);
  const res = await fetch(`${baseUrl}/gateway/relay`, { method: 'POST', body, headers, dispatcher: patientDispatcher });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`gateway intake answered ${res.status}`);
}

interface Seeding {
  bench: BenchRuntime;
  seeding: Pick<Seeded, 'seedingMs' | 'walPeak'>;
  label: string;
}

/** A tenant with one data source of `rows` rows and `conversations` conversations of 10 messages. */
async function seedTenant(s: Seeding, rows: number, conversations: number, sinkUrl?: string): Promise<TenantKeys> {
  const { bench } = s;
  const t = await provisionTenant({ plan: 'enterprise' });
  const api = clientFor(bench.baseUrl, t);
  const dataSourceId = (await api.dataSources.create()).id;
  const webhookId = sinkUrl ? (await createWebhook(bench.runtime.ctx, t.botId, { type: 'conversation.started', url: sinkUrl })).webhook.id : undefined;
  // A hook is created disabled (spec "Webhook"); without this no event is delivered.
  if (webhookId) await setWebhookEnabled(t.botId, webhookId, true);
  const batches = Array.from({ length: Math.ceil(rows / 100) }, (_, b) =>
    Array.from({ length: Math.min(100, rows - b * 100) }, (_, i) => ({ name: `item-${b * 100 + i}.md`, content: markdown(b * 100 + i) })),
  );
  const part = (name: string, fn: () => Promise<unknown>) => (s.label ? timedPart(s.seeding, `${s.label} ${name}`, fn) : fn());
  await part('rows', () => mapLimit(batches, 4, (batch) => api.rows.add(dataSourceId, batch)));
  const scope = { bot: { id: t.botId, name: 'Bench bot', teamId: t.teamId, welcomeMessage: null }, channelId: t.channelId };
  const ids: string[] = [];
  await part('conversations', () =>
    mapLimit(Array.from({ length: conversations }), 16, async () => {
      const conversation = await startConversation(bench.runtime.ctx, scope as never, {});
      await recordMessages(
        bench.runtime.ctx,
        conversation,
        Array.from({ length: 10 }, (_, m) => ({ role: m % 2 ? ('assistant' as const) : ('user' as const), message: words(12) })),
      );
      ids.push(conversation.id);
    }),
  );
  return { ...t, dataSourceId, webhookId, conversationId: ids[Math.floor(ids.length / 2)]!, rowIds: [] };
}

/** The install, every count times `scale`. */
async function seedInstall(bench: BenchRuntime, scale: number, sinkUrl: string): Promise<Seeded> {
  const n = (full: number) => Math.max(1, Math.round(full * scale));
  const seeding: Pick<Seeded, 'seedingMs' | 'walPeak'> = { seedingMs: {}, walPeak: {} };
  const big = await seedTenant({ bench, seeding, label: 'big tenant' }, n(100_000), n(50_000), sinkUrl);
  const smalls = await timedPart(seeding, '19 small tenants', async () => {
    const out: TenantKeys[] = [];
    for (let i = 0; i < 19; i++) out.push(await seedTenant({ bench, seeding, label: '' }, n(500), 5));
    return out;
  });
  // Events beyond the big tenant's conversation starts, each fanned out to its webhook.
  await timedPart(seeding, 'events', () =>
    mapLimit(Array.from({ length: Math.max(0, n(300_000) - n(50_000)) }), 32, () =>
      bench.runtime.ctx.events.emit({ type: 'conversation.started', teamId: big.teamId, botId: big.botId, payload: { conversation: { id: randomUUID() } } }),
    ),
  );
  await timedPart(seeding, 'gateway deliveries', () => mapLimit(Array.from({ length: n(300_000) }), 32, () => postGateway(bench.baseUrl)));
  const bigApi = clientFor(bench.baseUrl, big);
  await timedPart(seeding, 'first full sync of the big source', () => syncAndWait(bigApi, big.dataSourceId, 200));
  await timedPart(seeding, 'worker drained (gateway processing, first webhook attempts)', () => drained(progress));
  big.rowIds = await rowIdsOf(bigApi, big.dataSourceId);
  const small = smalls[0]!;
  small.rowIds = await rowIdsOf(clientFor(bench.baseUrl, small), small.dataSourceId);
  const counts =
    `big tenant ${n(100_000)} rows + ${n(50_000)} conversations × 10 messages, 19 × ${n(500)} rows, ` +
    `${n(300_000)} events with deliveries, ${n(300_000)} gateway deliveries`;
  return { big, small, ...seeding, counts };
}

/** A lone tenant of the small one's shape. */
async function seedAlone(bench: BenchRuntime, scale: number): Promise<Seeded> {
  const seeding: Pick<Seeded, 'seedingMs' | 'walPeak'> = { seedingMs: {}, walPeak: {} };
  const small = await seedTenant({ bench, seeding, label: '' }, Math.max(1, Math.round(500 * scale)), 5);
  small.rowIds = await rowIdsOf(clientFor(bench.baseUrl, small), small.dataSourceId);
  return { small, ...seeding, counts: `${small.rowIds.length} rows + 5 conversations` };
}

const dir = process.argv[2]!;
const keep = process.argv.includes('--keep');
writeBenchRule(path.join(dir, 'rules'));
fs.writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [GATEWAY_SECRET] } } }));
const env = { ADMIN_TOKEN, RETENTION_DAYS: '0', GATEWAY_CONFIG: path.join(dir, 'gateway.json'), RULES_DIR: path.join(dir, 'rules'), JOB_PROCESS_EVERY_MS: '200' };
const splitWorker = process.env.BENCH_WORKER_PROCESS === '1';
const bench = await startBenchRuntime({
  env,
  dataDir: keep ? path.join(dir, 'db') : undefined,
  worker: !splitWorker,
  role: splitWorker ? { api: true, worker: false } : undefined,
});
const worker = splitWorker ? await startWorkerProcess(bench.uri) : undefined;

/** `src/main.ts` with ROLE=worker on this instance's database; resolves once it processes jobs. */
async function startWorkerProcess(uri: string) {
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  const child = fork(main, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, ROLE: 'worker', MONGODB_URI: uri, LOG_LEVEL: 'info', OUTBOUND_ALLOW_PRIVATE: 'true', DATA_DIR: path.join(dir, 'worker') },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  process.on('exit', () => child.kill());
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes('worker processing jobs')) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // the rest of its log is not read
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker process exited (${code}) before processing jobs`)));
  });
  return {
    rssBytes: () => Number(fs.readFileSync(`/proc/${child.pid}/statm`, 'utf8').split(' ')[1]) * 4096,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
const { ctx } = bench.runtime;
setInterval(() => walPeak.sample(bench.database.walSize()), 100).unref();

/** GC pauses, CPU and heap since the last take. */
const gcTally = {
  tally: { pauseMs: 0, maxMs: 0, heapPeak: 0 },
  cpuFrom: process.cpuUsage(),
  take(): GcTally {
    const cpu = process.cpuUsage(this.cpuFrom);
    const out = { ...this.tally, cpuMs: (cpu.user + cpu.system) / 1000, heapUsed: process.memoryUsage().heapUsed };
    this.tally = { pauseMs: 0, maxMs: 0, heapPeak: 0 };
    this.cpuFrom = process.cpuUsage();
    return out;
  },
};
/** The event loop's blocks (LoopTally); GC pauses of 1 ms or more are kept a while to be found inside them. */
const loopTally = {
  histogram: monitorEventLoopDelay({ resolution: 2 }),
  blocks: [] as Array<{ end: number; ms: number }>,
  gcPauses: [] as Array<{ start: number; ms: number }>,
  take(): LoopTally {
    const h = this.histogram;
    // GC entries reach the observer after the block they were in, so they are matched here.
    const gcIn = (start: number, end: number) => this.gcPauses.reduce((sum, p) => sum + Math.max(0, Math.min(end, p.start + p.ms) - Math.max(start, p.start)), 0);
    const out = { p99: h.percentile(99) / 1e6, max: h.max / 1e6, blocks: this.blocks.map((b) => ({ ...b, gcMs: gcIn(b.end - b.ms, b.end) })) };
    h.reset();
    this.blocks = [];
    return out;
  },
};
loopTally.histogram.enable();
{
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const ms = now - last - 5;
    last = now;
    if (ms >= 10 && loopTally.blocks.length < 20_000) loopTally.blocks.push({ end: performance.timeOrigin + now, ms });
  }, 5).unref();
}
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.duration >= 1) loopTally.gcPauses.push({ start: performance.timeOrigin + entry.startTime, ms: entry.duration });
    gcTally.tally.pauseMs += entry.duration;
    gcTally.tally.maxMs = Math.max(gcTally.tally.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
setInterval(() => (loopTally.gcPauses = loopTally.gcPauses.filter((p) => p.start > Date.now() - 600_000)), 60_000).unref();
setInterval(() => (gcTally.tally.heapPeak = Math.max(gcTally.tally.heapPeak, process.memoryUsage().heapUsed)), 500).unref();
const timed = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

type Message = {
  seed?: { scale: number; shape: 'install' | 'tenant'; sinkUrl: string };
  retarget?: { botId: string; webhookId: string; url: string };
  sweeps?: boolean;
  stats?: boolean;
  walPeak?: boolean;
  gc?: boolean;
  loop?: boolean;
  close?: boolean;
};
process.on('message', async (msg: Message) => {
  if (msg.seed) {
    const { scale, shape, sinkUrl } = msg.seed;
    process.send!({ seeded: shape === 'install' ? await seedInstall(bench, scale, sinkUrl) : await seedAlone(bench, scale) });
  }
  if (msg.retarget) {
    await updateWebhook(ctx, msg.retarget.botId, msg.retarget.webhookId, { url: msg.retarget.url });
    process.send!({ retargeted: true });
  }
  if (msg.sweeps) {
    const sweep = async (run: () => Promise<unknown>) => {
      let found: unknown;
      const ms = await timed(async () => void (found = await run()));
      return { ms, found };
    };
    process.send!({
      sweeps: {
        events: await sweep(() => ctx.events.redispatchStale(30_000)),
        webhooks: await sweep(() => webhookSweep(ctx, 60_000)),
        gateway: await sweep(() => gatewaySweep(ctx, 120_000)),
        syncs: await sweep(() => performSyncSweep(ctx)),
      },
    });
  }
  if (msg.stats) process.send!({ stats: { apiRss: process.memoryUsage().rss, dbRss: bench.database.rssBytes(), workerRss: worker?.rssBytes() ?? 0 } });
  if (msg.walPeak) process.send!({ walPeak: walPeak.take() });
  if (msg.gc) process.send!({ gc: gcTally.take() });
  if (msg.loop) process.send!({ loop: loopTally.take() });
  if (msg.close) await close(0);
});
async function close(code: number): Promise<never> {
  await worker?.stop();
  await bench.close();
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
// A bench that died without closing this instance: stop it, so its database is not left running
// on a kept directory.
process.once('disconnect', () => void close(1));
process.send!({ ready: bench.baseUrl });
