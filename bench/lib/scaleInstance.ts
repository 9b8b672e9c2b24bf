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
//   { sweeps } -> { sweeps: { ms, found } by sweep, the gateway's with its backlog and read-alone ms }; { stats } -> { stats: { apiRss, dbRss, workerRss } } (bytes; workerRss 0 without a worker process);
//   { walPeak } -> { walPeak: { file, used } }: the WAL's peaks in bytes since the last ask (or seeding part);
//   { heapSnapshot: file } -> { heapSnapshot: file }: writes this process's heap snapshot (bench/heap-holders.ts reads it);
//   { gc } -> { gc: GcTally }: this process's GC pauses by kind, CPU and heap used since the last ask;
//   { loop } -> { loop: LoopTally }: its event loop's delay, blocks of 10 ms or more and served requests' times since the last ask;
//   { close } -> stops the runtime and the database, and exits.
// BENCH_WORKER_PROCESS=1 runs the jobs in a second process, `src/main.ts` with ROLE=worker on the
// same database (docker-compose.yml's shape), at the OS priority BENCH_WORKER_NICE (default 0);
// otherwise one process serves HTTP and runs the jobs (ROLE=all, the embedded default).
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
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
import { trusted } from '../../src/db/connection.ts';
import { GatewayDeliveryModel } from '../../src/gateway/model.ts';
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
  os.setPriority(child.pid!, Number(process.env.BENCH_WORKER_NICE ?? 0));
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

/** GC pauses (counts and sizes do not depend on the load; their ms do), CPU and heap since the last take. */
const gcTally = {
  tally: { minor: 0, major: 0, otherMs: 0, minorMs: 0, majorMs: 0, maxMs: 0, heapPeak: 0 } satisfies Omit<GcTally, 'cpuMs' | 'heapUsed'>,
  cpuFrom: process.cpuUsage(),
  take(): GcTally {
    const cpu = process.cpuUsage(this.cpuFrom);
    const out = { ...this.tally, cpuMs: (cpu.user + cpu.system) / 1000, heapUsed: process.memoryUsage().heapUsed };
    this.tally = { minor: 0, major: 0, otherMs: 0, minorMs: 0, majorMs: 0, maxMs: 0, heapPeak: 0 };
    this.cpuFrom = process.cpuUsage();
    return out;
  },
};
/** The event loop's blocks (LoopTally); GC pauses of 1 ms or more are kept a while to be found inside them. */
const loopTally = {
  histogram: monitorEventLoopDelay({ resolution: 2 }),
  blocks: [] as Array<Omit<LoopTally['blocks'][number], 'gcMs'>>,
  gcPauses: [] as Array<{ start: number; ms: number }>,
  served: [] as LoopTally['served'],
  take(): LoopTally {
    const h = this.histogram;
    // GC entries reach the observer after the block they were in, so they are matched here.
    const gcIn = (start: number, end: number) => this.gcPauses.reduce((sum, p) => sum + Math.max(0, Math.min(end, p.start + p.ms) - Math.max(start, p.start)), 0);
    const blocks = this.blocks.map((b) => ({ ...b, gcMs: gcIn(b.end - b.ms, b.end) }));
    const out = { p99: h.percentile(99) / 1e6, max: h.max / 1e6, blocks, served: this.served };
    h.reset();
    this.blocks = [];
    this.served = [];
    return out;
  },
};
loopTally.histogram.enable();
// A measured request's time in this process, so bench/scale.ts can tell it from the time before the
// loop took the request up (a block, or the socket) and after it finished (the client's side).
/** What the loop ran since its last 5 ms tick: intake requests taken up and answered, Agenda job runs ended (by name). */
const sinceTick = { intakeIn: 0, intakeOut: 0, jobs: {} as Record<string, number> };
bench.server.prependListener('request', (req, res) => {
  if (req.url?.startsWith('/gateway/')) {
    sinceTick.intakeIn++;
    res.once('finish', () => sinceTick.intakeOut++);
    return;
  }
  const start = performance.timeOrigin + performance.now();
  res.once('finish', () => loopTally.served.length < 20_000 && loopTally.served.push({ start, end: performance.timeOrigin + performance.now() }));
});
{
  // The process's CPU over a block (all its threads) tells its own work from waiting for a core.
  // The main thread's own time on a core and waiting for one (schedstat: run ns, run-queue wait ns):
  // a block the loop spent runnable but not running is the machine's, not this process's work.
  const mainThread = () => fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map((x) => Number(x) / 1e6);
  let [lastRun, lastWait] = mainThread();
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const ms = now - last - 5;
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    const [run, wait] = mainThread();
    const [runMs, waitMs] = [run! - lastRun!, wait! - lastWait!];
    [lastRun, lastWait] = [run, wait];
    last = now;
    lastCpu = cpu;
    const ran = { ...sinceTick, runMs, waitMs };
    [sinceTick.intakeIn, sinceTick.intakeOut, sinceTick.jobs] = [0, 0, {}];
    if (ms < 10) return;
    // hrEnd: µs on the monotonic clock of V8's --cpu-prof timestamps (bench/prof-blocks.ts).
    if (loopTally.blocks.length < 20_000) loopTally.blocks.push({ end: performance.timeOrigin + now, hrEnd: Number(process.hrtime.bigint() / 1000n), ms, cpuMs, ...ran });
  }, 5).unref();
}
/** Agenda job runs ended since the last { loop } ask, by name, beside those that ended inside a block. */
let jobsEnded: Record<string, number> = {};
bench.runtime.ctx.jobs.on('complete', (job: { attrs: { name: string } }) => {
  const name = job.attrs.name;
  sinceTick.jobs[name] = (sinceTick.jobs[name] ?? 0) + 1;
  jobsEnded[name] = (jobsEnded[name] ?? 0) + 1;
});
new PerformanceObserver((list) => {
  const t = gcTally.tally;
  for (const entry of list.getEntries()) {
    if (entry.duration >= 1) loopTally.gcPauses.push({ start: performance.timeOrigin + entry.startTime, ms: entry.duration });
    // PerformanceGC kinds: 1 minor (scavenge), 2 major (mark-compact), 4 incremental marking, 8 weak callbacks
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === 1) (t.minor++, (t.minorMs += entry.duration));
    else if (kind === 2) (t.major++, (t.majorMs += entry.duration));
    else t.otherMs += entry.duration;
    t.maxMs = Math.max(t.maxMs, entry.duration);
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
  heapSnapshot?: string;
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
    // Each sweep's time and what it found; for the gateway also the unprocessed backlog and the
    // time of its read of what is due alone, so reading and re-queuing a backlog's work are apart.
    const sweep = async (run: () => Promise<unknown>) => {
      let found: unknown;
      const ms = await timed(async () => void (found = await run()));
      return { ms, found };
    };
    const dueCutoff = new Date(ctx.clock.now().getTime() - 120_000);
    const backlog = await GatewayDeliveryModel.countDocuments({ processedAt: null });
    const readMs = await timed(() => GatewayDeliveryModel.find({ processedAt: null, sweptAt: trusted({ $lt: dueCutoff }) }, { id: 1, run: 1 }).limit(500).lean());
    process.send!({
      sweeps: {
        events: await sweep(() => ctx.events.redispatchStale(30_000)),
        webhooks: await sweep(() => webhookSweep(ctx, 60_000)),
        gateway: { ...(await sweep(() => gatewaySweep(ctx, 120_000))), backlog, readMs },
        syncs: await sweep(() => performSyncSweep(ctx)),
      },
    });
  }
  if (msg.stats) process.send!({ stats: { apiRss: process.memoryUsage().rss, dbRss: bench.database.rssBytes(), workerRss: worker?.rssBytes() ?? 0 } });
  if (msg.walPeak) process.send!({ walPeak: walPeak.take() });
  if (msg.gc) process.send!({ gc: gcTally.take() });
  if (msg.loop) {
    process.send!({ loop: { ...loopTally.take(), jobsEnded } });
    jobsEnded = {};
  }
  if (msg.heapSnapshot) process.send!({ heapSnapshot: v8.writeHeapSnapshot(msg.heapSnapshot) });
  if (msg.close) {
    await worker?.stop();
    await bench.close();
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }
});
process.send!({ ready: bench.baseUrl });
