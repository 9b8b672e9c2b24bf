// Scale: does a request's cost stay bounded by what it returns when the database holds a
// real install? Seeds the default database (or MONGODB_URI) once through the services' write
// paths, then measures every list and get endpoint for the big tenant and a small one while gateway
// intake runs in the background; the small tenant's figures are compared with the same requests on
// a second instance that holds only a tenant of its shape, in the same run: interleaved in blocks of
// 10 requests, the intake moving to whichever instance is measured, so both sides see the same
// machine through the run (a burst of noise lands on both, not on one side's whole block).
//
//   node --import tsx bench/scale.ts [--scale 0.1] [--runs 3] [--requests 100] [--intake 200]
//                                    [--data-dir DIR | --reuse DIR]
//   --scale 1        the issue's full size (default 0.1)
//   --data-dir DIR   seed into DIR and keep it: the embedded database (DIR/db), manifest.json (scale,
//                    seeding times, tenant ids and keys) and row-ids.json; refuses a DIR already seeded
//   --reuse DIR      skip seeding: start on DIR's database and manifest and go straight to the runs
//                    (--scale is then the manifest's); each run edits 1 % of the big source's rows
//   --intake 0       no background intake (the database alone)
//   --big-only       only the big tenant's requests, no lone instance nor isolation (e.g. to compare
//                    the API process's GC under two BENCH_INSTANCE_NODE_ARGS in a few minutes)
//   --warmup N       untimed requests per probe before its timed ones (default 5; 0 times a fresh
//                    instance's cold first pages too)
//   --settle S       seconds the intake runs before the first timed request (default 10; 0 times its
//                    ramp-up too)
//   --worker-process each instance runs its jobs in a second process (ROLE=worker, as docker-compose.yml
//                    deploys), the API process serving HTTP only
//   MONGODB_URI=mongodb://host/relay_scale node --import tsx bench/scale.ts   (an empty MongoDB you run;
//                    the lone instance uses <database>_alone, dropped at start; --reuse keeps only the manifest)
//
// Full size: one bot with 100,000 rows of ~2 KB and 19 with 500, 300,000 events with their webhook
// deliveries, 300,000 processed gateway deliveries, 50,000 conversations of 10 messages; every
// count is multiplied by --scale. Retention is off (RETENTION_DAYS=0). Seeding ends when the worker
// has processed every gateway delivery and made every webhook delivery's first attempt.
//
// Each part runs in a process of its own, so latency and memory are the API's, not the bench's:
// the big and the lone instance (bench/lib/scaleInstance.ts, which seeds too), the webhook sink
// (bench/lib/sink.ts) and the paced intake (bench/lib/intake.ts); this process only sends the
// measured requests, one at a time. RSS is the big instance's API process (peak of samples taken
// every 2 s during a run) and its FerretDB's, apart. The embedded database's WAL file is sampled
// every 100 ms: its peak per seeding part and per run (a long read pins the WAL; docs/FERRETDB.md).
// The big instance's API event loop is watched during the big tenant's requests: its delay p99 and
// its blocks of 10 ms or more.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fetch } from 'undici';
import { MongoClient } from 'mongodb';
import { machineLine } from './lib/runtime.ts';
import { endpointProbes, p99RatioInterval, summarize, timeSamples, type Probe } from './lib/probes.ts';
import { syncAndWait } from './lib/sync.ts';
import { ADMIN_TOKEN, GATEWAY_SECRET, clientFor, markdown, patientDispatcher, type GcTally, type LoopTally, type Seeded, type TenantKeys } from './lib/scaleTenant.ts';
import { child } from './lib/child.ts';
import { flag } from './lib/args.ts';

const RUNS = Number(flag('runs') ?? 3);
const REQUESTS = Number(flag('requests') ?? 100);
/**
 * Untimed requests per probe first. With 100 samples the p99 is the worst one, and a fresh
 * instance's first pages of a route run its code cold (a delivery list's first page of 100 costs
 * 60-110 ms of CPU cold against ~20 warm).
 */
const WARMUP = Number(flag('warmup') ?? 5);
/**
 * The intake runs this long before the big tenant's requests: the figures are of a steady intake.
 * In its first ~2 s the API process runs the intake's code cold beside the probes, and every
 * request of the first probe was slow (rows' first page p99 80-240 ms against 30-45 for the next
 * page, with event-loop blocks of 40-80 ms that were not GC).
 */
const SETTLE_MS = Number(flag('settle') ?? 10) * 1000;
/** Background gateway intake per second during the runs (the issue's 200; 0 to see the database alone). */
const INTAKE = Number(flag('intake') ?? 200);
const REUSE = flag('reuse');
const BIG_ONLY = process.argv.includes('--big-only');
// Read by bench/lib/scaleInstance.ts in the instances this process forks.
if (process.argv.includes('--worker-process')) process.env.BENCH_WORKER_PROCESS = '1';
const PROCESSES = process.env.BENCH_WORKER_PROCESS === '1' ? 'API and worker processes apart' : 'API and worker in one process';
if (REUSE && flag('data-dir')) throw new Error('--data-dir seeds a new directory, --reuse runs on a seeded one: give one of them');
const KEEP = flag('data-dir') ?? REUSE;
const progress = (line: string) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const lib = (file: string) => fileURLToPath(new URL(`./lib/${file}`, import.meta.url));

/** What --data-dir keeps beside the database; the row ids go to row-ids.json. */
interface Manifest {
  scale: number;
  database: string;
  seededAt: string;
  commit: string;
  machine: string;
  counts: string;
  seedingMs: Record<string, number>;
  walPeak: Seeded['walPeak'];
  big: Omit<TenantKeys, 'rowIds'>;
  small: Omit<TenantKeys, 'rowIds'>;
}
const DATABASE = process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded FerretDB';
const dir = KEEP ? path.resolve(KEEP) : fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-scale-'));
const manifestPath = path.join(dir, 'manifest.json');
const rowIdsPath = path.join(dir, 'row-ids.json');
if (REUSE && !fs.existsSync(manifestPath)) throw new Error(`${manifestPath} not found: seed it first with --data-dir ${REUSE}`);
if (!REUSE && KEEP && fs.existsSync(manifestPath)) throw new Error(`${dir} is already seeded: run on it with --reuse ${KEEP}, or seed into an empty directory`);

let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // not a checkout: the figures just carry no commit
}

// ---- The instances and their data -------------------------------------------------------------
progress(`${DATABASE}, ${machineLine()}, ${REUSE ? `reusing ${dir}` : `seeding into ${dir}`}`);
const sink = child(lib('sink.ts'), []);
const sinkUrl = await sink.next<string>('url');
// BENCH_INSTANCE_NODE_ARGS: the instances' Node flags (NODE_OPTIONS refuses "--trace-gc"); npm start's by default.
const instanceNodeArgs = (process.env.BENCH_INSTANCE_NODE_ARGS ?? '--max-semi-space-size=32 --no-allocation-site-pretenuring').split(' ').filter(Boolean);
const big = child(lib('scaleInstance.ts'), KEEP ? [dir, '--keep'] : [dir], {}, instanceNodeArgs);
const bigUrl = await big.next<string>('ready');

let manifest: Manifest;
let rowIds: { big: string[]; small: string[] };
if (REUSE) {
  manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  rowIds = JSON.parse(fs.readFileSync(rowIdsPath, 'utf8')) as typeof rowIds;
  if (manifest.database !== DATABASE) throw new Error(`${dir} was seeded on ${manifest.database}, not ${DATABASE}`);
  // The sink listens on a new port each run.
  await big.ask({ retarget: { botId: manifest.big.botId, webhookId: manifest.big.webhookId, url: sinkUrl } }, 'retargeted');
} else {
  const scale = Number(flag('scale') ?? process.env.BENCH_SCALE ?? 0.1);
  const seeded = await big.ask<Seeded>({ seed: { scale, shape: 'install', sinkUrl } }, 'seeded');
  const { rowIds: bigRows, ...bigKeys } = seeded.big!;
  const { rowIds: smallRows, ...smallKeys } = seeded.small;
  rowIds = { big: bigRows, small: smallRows };
  manifest = { scale, database: DATABASE, seededAt: new Date().toISOString(), commit, machine: machineLine(), counts: seeded.counts, seedingMs: seeded.seedingMs, walPeak: seeded.walPeak, big: bigKeys, small: smallKeys };
  if (KEEP) {
    fs.writeFileSync(rowIdsPath, JSON.stringify(rowIds));
    fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}
const bigTenant: TenantKeys = { ...manifest.big, rowIds: rowIds.big };
const small: TenantKeys = { ...manifest.small, rowIds: rowIds.small };

// The lone instance: always seeded afresh (a few seconds), in a database of its own.
let aloneEnv: NodeJS.ProcessEnv = {};
if (process.env.MONGODB_URI) {
  const uri = new URL(process.env.MONGODB_URI);
  uri.pathname = `/${uri.pathname.slice(1) || 'relay'}_alone`;
  const client = await MongoClient.connect(uri.toString());
  await client.db().dropDatabase();
  await client.close();
  aloneEnv = { MONGODB_URI: uri.toString() };
}
const alone = BIG_ONLY ? undefined : child(lib('scaleInstance.ts'), [fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-scale-alone-'))], aloneEnv, instanceNodeArgs);
const aloneUrl = alone ? await alone.next<string>('ready') : '';
const aloneTenant = alone ? (await alone.ask<Seeded>({ seed: { scale: manifest.scale, shape: 'tenant', sinkUrl } }, 'seeded')).small : small;

// ---- Requests ------------------------------------------------------------------------------------
async function admin(baseUrl: string, pathname: string): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api/admin${pathname}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, dispatcher: patientDispatcher });
  const body = (await res.json()) as { success: boolean };
  if (!body.success) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const probes = (baseUrl: string, t: TenantKeys): Probe[] => endpointProbes(clientFor(baseUrl, t), (p) => admin(baseUrl, p), t);

type Figures = Map<string, { p50: number; p99: number }>;
async function measure(list: Probe[]): Promise<Figures> {
  const out: Figures = new Map();
  for (const [name, request] of list) {
    await timeSamples(request, WARMUP);
    out.set(name, summarize(await timeSamples(request, REQUESTS)));
  }
  return out;
}

/** The API event loop during the big tenant's requests: a block that mostly held GC is the heap's, not a request's. */
function loopLine(loop: LoopTally): string {
  const over = (ms: number) => loop.blocks.filter((b) => b.ms >= ms).length;
  const longest = [...loop.blocks].sort((a, b) => b.ms - a.ms).slice(0, 3);
  return (
    `API event loop during the big tenant's requests: delay p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms; blocks of 10 ms or more ${over(10)}, of 20 ${over(20)}, of 50 ${over(50)}; ` +
    `longest (ms, of it GC) ${longest.map((b) => `${b.ms.toFixed(0)} (${b.gcMs.toFixed(0)})`).join(', ') || '-'}`
  );
}

/** Paced gateway intake at `baseUrl` in a process of its own, until stop(); moveTo() retargets it. */
async function backgroundIntake(baseUrl: string) {
  if (INTAKE === 0) return { moveTo: async (_baseUrl: string) => {}, stop: async () => ({ sent: 0, failed: 0 }) };
  const receiver = (url: string) => `${url}/gateway/relay`;
  const intake = child(lib('intake.ts'), [receiver(baseUrl), String(INTAKE)], { GATEWAY_BENCH_SECRET: GATEWAY_SECRET });
  await intake.next('started');
  return {
    moveTo: async (url: string) => void (await intake.ask<string>({ target: receiver(url) }, 'targeted')),
    stop: () => intake.ask<{ sent: number; failed: number }>({ stop: true }, 'stopped'),
  };
}

const BLOCK = 10;
/**
 * The small tenant's requests on the big instance and the same requests on the lone one, alternating
 * in blocks of BLOCK (which side goes first alternates too), the intake following the measured side.
 */
async function measureIsolation(intake: Awaited<ReturnType<typeof backgroundIntake>>): Promise<{ small: Figures; alone: Figures; interval: Map<string, [number, number]> }> {
  const aloneProbes = new Map(probes(aloneUrl, aloneTenant));
  const out = { small: new Map(), alone: new Map(), interval: new Map() } as { small: Figures; alone: Figures; interval: Map<string, [number, number]> };
  // The lone instance has had no intake yet: its ramp-up is not the figure either (SETTLE_MS).
  await intake.moveTo(aloneUrl);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  for (const [name, request] of probes(bigUrl, small)) {
    const sides = [
      { url: bigUrl, request, ms: [] as number[] },
      { url: aloneUrl, request: aloneProbes.get(name)!, ms: [] as number[] },
    ];
    for (const side of sides) await timeSamples(side.request, WARMUP);
    for (let done = 0, block = 0; done < REQUESTS; done += BLOCK, block++) {
      for (const side of block % 2 ? [...sides].reverse() : sides) {
        await intake.moveTo(side.url);
        side.ms.push(...(await timeSamples(side.request, Math.min(BLOCK, REQUESTS - done))));
      }
    }
    out.small.set(name, summarize(sides[0]!.ms));
    out.alone.set(name, summarize(sides[1]!.ms));
    out.interval.set(name, p99RatioInterval(sides[0]!.ms, sides[1]!.ms));
  }
  return out;
}

/** Samples the big instance's API, worker (when apart) and FerretDB resident memory every 2 s until stop(); peaks in bytes. */
function sampleRss() {
  const peak = { apiRss: 0, dbRss: 0, workerRss: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const s = await big.ask<typeof peak>({ stats: true }, 'stats');
      for (const key of Object.keys(peak) as Array<keyof typeof peak>) peak[key] = Math.max(peak[key], s[key]);
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return peak;
    },
  };
}

// ---- Runs ----------------------------------------------------------------------------------------
const lines: string[] = [];
const print = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
print(`## bench/scale.ts --scale ${manifest.scale} (${DATABASE}; ${PROCESSES}), main ${commit}`);
print(`Machine: ${machineLine()}`);
print(
  `Seeded${REUSE ? ` (reused: seeded ${manifest.seededAt.slice(0, 16)} at ${manifest.commit})` : ''}: ${manifest.counts}; seeding s: ` +
    Object.entries(manifest.seedingMs)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
      .join(', '),
);
const walMiB = (w: { file: number; used: number }) => `${(w.used / 2 ** 20).toFixed(1)} (file ${(w.file / 2 ** 20).toFixed(1)})`;
if (DATABASE !== 'MONGODB_URI') {
  print(
    `WAL peak while seeding, MiB in use (file size), sampled every 100 ms: ${Object.entries(manifest.walPeak)
      .map(([k, v]) => `${k} ${walMiB(v)}`)
      .join(', ')}`,
  );
}
const bigApi = clientFor(bigUrl, bigTenant);
for (let run = 1; run <= RUNS; run++) {
  await big.ask({ walPeak: true }, 'walPeak');
  const rss = sampleRss();
  const intake = await backgroundIntake(bigUrl);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await big.ask({ gc: true }, 'gc');
  await big.ask({ loop: true }, 'loop');
  const bigProbes: Probe[] = [
    // The machine's floor under the same intake: a request that reads nothing, against which the others' p99 is read.
    ['floor: /healthz (reads nothing)', () => fetch(`${bigUrl}/healthz`, { dispatcher: patientDispatcher }).then((res) => res.text())],
    ...probes(bigUrl, bigTenant),
    ['gateway delivery list (admin)', () => admin(bigUrl, '/gateway/deliveries?limit=100')],
  ];
  const bigStarted = performance.now();
  const bigFigures = await measure(bigProbes);
  const gc = await big.ask<GcTally>({ gc: true }, 'gc');
  const loop = await big.ask<LoopTally>({ loop: true }, 'loop');
  const bigSeconds = (performance.now() - bigStarted) / 1000;
  const peak = await rss.stop();
  const { small: smallFigures, alone: aloneFigures, interval } = BIG_ONLY ? { small: new Map(), alone: new Map(), interval: new Map() } : await measureIsolation(intake);
  const { sent, failed } = await intake.stop();
  print(`\n### Run ${run} (background gateway intake from ${SETTLE_MS / 1000} s before the first request: ${sent} sent, ${failed} failed; machine load average ${os.loadavg()[0]!.toFixed(1)}); ms, ${REQUESTS} requests each after ${WARMUP} untimed`);
  print('| Request | big p50 | big p99 | small p50 | small p99 | small alone p99 | small / alone | 90 % interval |');
  print('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, b] of bigFigures) {
    const s = smallFigures.get(name);
    const a = aloneFigures.get(name);
    const f = (x?: number) => (x === undefined ? '-' : x.toFixed(1));
    const range = interval.get(name);
    print(
      `| ${name} | ${f(b.p50)} | ${f(b.p99)} | ${f(s?.p50)} | ${f(s?.p99)} | ${f(a?.p99)} | ${s && a ? (s.p99 / a.p99).toFixed(2) : '-'} | ` +
        `${range ? `${range[0].toFixed(2)}-${range[1].toFixed(2)}` : '-'} |`,
    );
  }
  print(loopLine(loop));
  const walRequests = await big.ask<{ file: number; used: number }>({ walPeak: true }, 'walPeak');
  const sweeps = await big.ask<Record<string, { ms: number; found: unknown }>>({ sweeps: true }, 'sweeps');
  print(`Sweeps (ms, what each found): ${Object.entries(sweeps).map(([k, v]) => `${k} ${v.ms.toFixed(0)} (${JSON.stringify(v.found)})`).join(', ')}`);
  const syncStart = (await syncAndWait(bigApi, bigTenant.dataSourceId, 100)).startMs;
  // Re-sync after editing 1 % of the big source's rows (the time in the text, so a reused install's
  // edits change the rows again).
  const edited = bigTenant.rowIds
    .filter((_, i) => i % 100 === run % 100)
    .map((id, i) => ({ id, name: `edited-${run}-${i}.md`, content: `${markdown(run * 1_000_000 + i)}\n\nEdited ${new Date().toISOString()}` }));
  for (let i = 0; i < edited.length; i += 100) await bigApi.rows.update(bigTenant.dataSourceId, edited.slice(i, i + 100));
  const resync = (await syncAndWait(bigApi, bigTenant.dataSourceId, 50)).totalMs;
  const walSyncs = await big.ask<{ file: number; used: number }>({ walPeak: true }, 'walPeak');
  // A question to the big bot after its re-sync: the first loads the source's whole index into the
  // API process (knowledge/service.ts), which it then holds; the next runs' RSS peaks include it.
  const ask = async (message: string) => {
    const t = performance.now();
    const reply = await bigApi.chat.sendMessage({ message });
    return { ms: performance.now() - t, sources: reply.sources.length };
  };
  // Each names an item the edit above wrote ("# Item <n>"), found once the re-sync indexed it; in the rows' own words, as any other makes the bot refuse.
  const firstQuestion = await ask(`What is the warranty of item ${run * 1_000_000 + 7}?`);
  const nextQuestion = await ask(`How do I return item ${run * 1_000_000 + 8}?`);
  const afterChat = await big.ask<{ apiRss: number }>({ stats: true }, 'stats');
  print(
    `Sync start ${syncStart.toFixed(1)} ms; re-sync of ${edited.length} edited rows (1 %) ${(resync / 1000).toFixed(2)} s; ` +
      `RSS peak during the requests: API process ${mib(peak.apiRss)} MiB, ${peak.workerRss ? `worker process ${mib(peak.workerRss)} MiB, ` : ''}FerretDB ${process.env.MONGODB_URI ? '-' : `${mib(peak.dbRss)} MiB`}`,
  );
  print(
    `Chat to the big bot after the re-sync: first question ${(firstQuestion.ms / 1000).toFixed(2)} s (loads the index), the next ${nextQuestion.ms.toFixed(0)} ms ` +
      `(${firstQuestion.sources} and ${nextQuestion.sources} sources); API process RSS after them ${mib(afterChat.apiRss)} MiB`,
  );
  const bigRequests = bigProbes.length * (REQUESTS + WARMUP);
  const per1k = 1000 / bigRequests;
  print(
    `Big instance's API process during the big tenant's ${bigRequests} requests (warm-ups included; ${bigSeconds.toFixed(0)} s, intake included): CPU ${(gc.cpuMs / bigRequests).toFixed(2)} ms a request; ` +
      `GC ${(gc.pauseMs * per1k).toFixed(0)} ms per 1,000 requests, longest pause ${gc.maxMs.toFixed(1)} ms; heap used peak ${mib(gc.heapPeak)} MiB, at the end ${mib(gc.heapUsed)} MiB`,
  );
  if (!process.env.MONGODB_URI) print(`WAL peak, MiB in use (file size): during the requests and intake ${walMiB(walRequests)}, during the sweeps, a sync and the 1 % re-sync ${walMiB(walSyncs)}`);
}

await Promise.all([big.close(), alone?.close(), sink.close()]);
if (!KEEP) fs.rmSync(dir, { recursive: true, force: true });
if (process.env.BENCH_OUT) fs.appendFileSync(process.env.BENCH_OUT, `${lines.join('\n')}\n`);
process.exit(0);
