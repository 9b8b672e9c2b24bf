// Why the small tenant's conversations page is slower on the big instance than on a lone one
// (issue 17, tenant isolation): the two instances of bench/scale.ts (a seeded install reused, a lone
// tenant seeded afresh) with the same paced gateway intake following the measured side, in windows
// that alternate big, alone, alone, big. Per window: the small tenant's page (sequential, as the
// probe sends it) wall p50/p99, and each instance's CPU per second (API process threads, FerretDB
// threads; /proc schedstat) and the API's GC pauses (scaleInstance's { gc } tally). An idle window
// (intake only, no page) gives each instance's background cost under the same intake.
//
//   node --import tsx bench/conv-isolation.ts --reuse DIR [--windows 8] [--requests 100] [--idle-ms 5000] [--intake 200] [--blocks-out FILE]
//
// BENCH_INSTANCE_NODE_ARGS: flags for the two instances' Node (as bench/scale.ts), e.g.
// "--cpu-prof --cpu-prof-dir=DIR"; --blocks-out writes each side's API loop blocks (with their
// monotonic end, hrEnd) and its CPU in ~20 ms intervals (API, FerretDB) as JSON, for
// bench/prof-blocks.ts to lay beside the profiles.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processThreadsCpuMs } from './lib/cpu.ts';
import { child } from './lib/child.ts';
import { flag, numberFlag } from './lib/args.ts';
import { GATEWAY_SECRET, clientFor, type GcTally, type LoopTally, type Seeded, type TenantKeys } from './lib/scaleTenant.ts';
import { timeSamples, summarize } from './lib/probes.ts';

const dir = flag('reuse');
if (!dir) throw new Error('usage: bench/conv-isolation.ts --reuse DIR [--windows N] [--requests N] [--idle-ms MS] [--intake N]');
const WINDOWS = numberFlag('windows', 8);
const REQUESTS = numberFlag('requests', 100);
const IDLE_MS = numberFlag('idle-ms', 5000);
const INTAKE = numberFlag('intake', 200);
const BLOCKS_OUT = flag('blocks-out');
const instanceNodeArgs = (process.env.BENCH_INSTANCE_NODE_ARGS ?? '').split(' ').filter(Boolean);
const lib = (file: string) => fileURLToPath(new URL(`./lib/${file}`, import.meta.url));

/** The API process's own threads (not its FerretDB child). */
function ownThreadsCpuMs(pid: number): number {
  return Object.values(ownThreadsByKind(pid)).reduce((t, ms) => t + ms, 0);
}
/**
 * The API process's threads' CPU: the main thread (the event loop) and the rest (V8's platform workers:
 * parallel scavenge, concurrent marking, background compiles; libuv's pool). Node 20 names them all
 * `node`, so they are not told apart further.
 */
function ownThreadsByKind(pid: number): Record<'main' | 'other', number> {
  const out = { main: 0, other: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      out[tid === String(pid) ? 'main' : 'other'] += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return out;
}

const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { scale: number; small: TenantKeys; big: TenantKeys };
const sink = child(lib('sink.ts'), []);
const sinkUrl = await sink.next<string>('url');
const big = child(lib('scaleInstance.ts'), [dir, '--keep'], {}, instanceNodeArgs);
const bigUrl = await big.next<string>('ready');
await big.ask({ retarget: { botId: manifest.big.botId, webhookId: manifest.big.webhookId, url: sinkUrl } }, 'retargeted');
const alone = child(lib('scaleInstance.ts'), [fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-conv-alone-'))], {}, instanceNodeArgs);
const aloneUrl = await alone.next<string>('ready');
const aloneTenant = (await alone.ask<Seeded>({ seed: { scale: manifest.scale, shape: 'tenant', sinkUrl } }, 'seeded')).small;
const intake = child(lib('intake.ts'), [`${bigUrl}/gateway/relay`, String(INTAKE)], { GATEWAY_BENCH_SECRET: GATEWAY_SECRET });
await intake.next('started');

const sides = {
  big: { inst: big, url: bigUrl, page: () => clientFor(bigUrl, manifest.small).chat.listConversations({ limit: 100 }) },
  alone: { inst: alone, url: aloneUrl, page: () => clientFor(aloneUrl, aloneTenant).chat.listConversations({ limit: 100 }) },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** One ~20 ms interval of an instance's CPU (ms): its API process's threads, its FerretDB's. */
type CpuSample = { end: number; api: number; db: number; threads: Record<'main' | 'other', number> };
type Row = { series: CpuSample[]; jobsEnded: Record<string, number>; api: number; db: number; gc: GcTally; ms: number[]; wall: number; slowBlocked: number; slowGc: number; apiBusy: number; dbBusy: number; blocks: LoopTally['blocks'] };
/**
 * Bursts: 20 ms intervals in which a process used 15 ms of CPU or more (a sweep, a GC, a batch of
 * intake work), sampled from this process while the window runs.
 */
function burstSampler(pid: number) {
  let [api, all] = [ownThreadsCpuMs(pid), processThreadsCpuMs(pid)];
  let kinds = ownThreadsByKind(pid);
  const out = { apiBusy: 0, dbBusy: 0, series: [] as CpuSample[] };
  const timer = setInterval(() => {
    const [a, t] = [ownThreadsCpuMs(pid), processThreadsCpuMs(pid)];
    if (a - api >= 15) out.apiBusy++;
    if (t - a - (all - api) >= 15) out.dbBusy++;
    // Kept for --blocks-out: each interval's CPU, to lay beside the API loop's blocks.
    const k = ownThreadsByKind(pid);
    const threads = { main: k.main - kinds.main, other: k.other - kinds.other };
    kinds = k;
    out.series.push({ end: performance.timeOrigin + performance.now(), api: a - api, db: t - a - (all - api), threads });
    [api, all] = [a, t];
  }, 20);
  return { stop: () => (clearInterval(timer), out) };
}
const rows = { big: [] as Row[], alone: [] as Row[] };
const idle = { big: [] as Row[], alone: [] as Row[] };

async function window(side: 'big' | 'alone', withPage: boolean): Promise<Row> {
  const s = sides[side];
  await intake.ask({ target: `${s.url}/gateway/relay` }, 'targeted');
  await sleep(1000); // the intake settled on this side
  await s.inst.ask({ gc: true }, 'gc');
  await s.inst.ask({ loop: true }, 'loop');
  const pid = s.inst.proc.pid!;
  const [t0, api0, all0] = [performance.now(), ownThreadsCpuMs(pid), processThreadsCpuMs(pid)];
  const bursts = burstSampler(pid);
  const ms: number[] = [];
  const starts: number[] = [];
  if (withPage) {
    for (let i = 0; i < REQUESTS; i++) {
      starts.push(performance.timeOrigin + performance.now());
      ms.push(...(await timeSamples(s.page, 1)));
    }
  } else await sleep(IDLE_MS);
  const wall = performance.now() - t0;
  const { apiBusy, dbBusy, series } = bursts.stop();
  const [api, all] = [ownThreadsCpuMs(pid) - api0, processThreadsCpuMs(pid) - all0];
  const gc = await s.inst.ask<GcTally>({ gc: true }, 'gc');
  const loop = await s.inst.ask<LoopTally>({ loop: true }, 'loop');
  // The two slowest samples: how much of them the API loop was blocked, and by GC.
  const worst = ms.map((m, i) => ({ start: starts[i]!, ms: m })).sort((a, b) => b.ms - a.ms).slice(0, 2);
  const overlap = (w: { start: number; ms: number }, b: { end: number; ms: number }) => Math.max(0, Math.min(w.start + w.ms, b.end) - Math.max(w.start, b.end - b.ms));
  const slowBlocked = worst.reduce((sum, w) => sum + loop.blocks.reduce((t, b) => t + overlap(w, b), 0), 0);
  const slowGc = worst.reduce((sum, w) => sum + loop.blocks.reduce((t, b) => t + (overlap(w, b) > 0 ? b.gcMs : 0), 0), 0);
  process.stderr.write(`${side} ${withPage ? 'page' : 'idle'}: API ${((api / wall) * 1000).toFixed(0)} ms/s, FerretDB ${(((all - api) / wall) * 1000).toFixed(0)} ms/s, bursts ${apiBusy} / ${dbBusy}, load ${os.loadavg()[0]!.toFixed(1)}\n`);
  return { series, jobsEnded: loop.jobsEnded ?? {}, api, db: all - api, gc, ms, wall, slowBlocked, slowGc, apiBusy, dbBusy, blocks: loop.blocks };
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
process.stdout.write(`conversations page of the small tenant (5), big instance ${dir} (scale ${manifest.scale}) vs alone, intake ${INTAKE}/s, load ${load()}\n`);
for (const side of ['big', 'alone'] as const) await timeSamples(sides[side].page, 20);
for (let w = 0; w < WINDOWS; w++) {
  const order = w % 2 ? (['alone', 'big'] as const) : (['big', 'alone'] as const);
  for (const side of order) {
    idle[side].push(await window(side, false));
    rows[side].push(await window(side, true));
  }
}
const f = (x: number) => x.toFixed(2);
process.stdout.write(
  '| side | window | p50 ms | p99 ms | API CPU ms/s | FerretDB CPU ms/s | API CPU ms/request (minus idle rate) | FerretDB ms/request (minus idle rate) | GC minor n / ms | major n / ms | max pause ms | heap MiB | two worst: loop blocked ms (GC ms) | bursts/s API, FerretDB |\n' +
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
);
for (const side of ['big', 'alone'] as const) {
  const sum = (list: Row[], k: (r: Row) => number) => list.reduce((t, r) => t + k(r), 0);
  for (const [label, list] of [
    ['idle (intake only)', idle[side]],
    ['page', rows[side]],
  ] as const) {
    const wall = sum(list, (r) => r.wall) / 1000;
    const ms = list.flatMap((r) => r.ms);
    const { p50, p99 } = ms.length ? summarize(ms) : { p50: NaN, p99: NaN };
    const apiRate = sum(list, (r) => r.api) / wall;
    const dbRate = sum(list, (r) => r.db) / wall;
    const idleWall = sum(idle[side], (r) => r.wall) / 1000;
    const [apiIdle, dbIdle] = [sum(idle[side], (r) => r.api) / idleWall, sum(idle[side], (r) => r.db) / idleWall];
    const perReq = (total: number, rate: number) => (ms.length ? f((total - rate * wall) / ms.length) : '-');
    const g = (k: keyof GcTally) => sum(list, (r) => r.gc[k] as number);
    process.stdout.write(
      `| ${side} | ${label} | ${f(p50)} | ${f(p99)} | ${f(apiRate)} | ${f(dbRate)} | ${perReq(sum(list, (r) => r.api), apiIdle)} | ${perReq(sum(list, (r) => r.db), dbIdle)} | ` +
        `${g('minor')} / ${f(g('minorMs'))} | ${g('major')} / ${f(g('majorMs'))} | ${f(Math.max(...list.map((r) => r.gc.maxMs)))} | ${(Math.max(...list.map((r) => r.gc.heapPeak)) / 2 ** 20).toFixed(0)} | ` +
        `${f(sum(list, (r) => r.slowBlocked))} (${f(sum(list, (r) => r.slowGc))}) | ${f(sum(list, (r) => r.apiBusy) / wall)}, ${f(sum(list, (r) => r.dbBusy) / wall)} |\n`,
    );
  }
}
for (const side of ['big', 'alone'] as const) {
  // The API loop's blocks of 20 ms or more in all windows: ms (the process's CPU over it, GC in it).
  const blocks = [...idle[side], ...rows[side]].flatMap((r) => r.blocks).filter((b) => b.ms >= 20).sort((a, b) => b.ms - a.ms);
  process.stdout.write(`${side}: API loop blocks of 20 ms or more ${blocks.length}; longest ${blocks.slice(0, 8).map((b) => `${b.ms.toFixed(0)} (${b.cpuMs.toFixed(0)}, ${b.gcMs.toFixed(0)})`).join(', ') || '-'}\n`);
  // What the loop ran in them: intake requests answered, job runs ended (scaleInstance's per-tick tally).
  const ran = (b: (typeof blocks)[number]) => `${b.ms.toFixed(0)}: main thread ran ${b.runMs?.toFixed(0)}, waited ${b.waitMs?.toFixed(0)}; ${b.intakeOut ?? '?'} answered${Object.entries(b.jobs ?? {}).map(([n, c]) => `, ${c} ${n}`).join('')}`;
  if (blocks.length) process.stdout.write(`  ran in them: ${blocks.slice(0, 12).map(ran).join('; ')}\n`);
  const total = (k: (b: (typeof blocks)[number]) => number | undefined) => blocks.reduce((t, b) => t + (k(b) ?? 0), 0).toFixed(0);
  const ended: Record<string, number> = {};
  for (const r of [...idle[side], ...rows[side]]) for (const [n, c] of Object.entries(r.jobsEnded)) ended[n] = (ended[n] ?? 0) + c;
  process.stdout.write(`  job runs ended over all windows: ${JSON.stringify(ended)}\n`);
  process.stdout.write(`  in all: ${total((b) => b.ms)} ms blocked; main thread ran ${total((b) => b.runMs)}, waited for a core ${total((b) => b.waitMs)}; GC ${total((b) => b.gcMs)}\n`);
}
process.stdout.write(`load after ${load()}\n`);
if (BLOCKS_OUT) {
  const of = (side: 'big' | 'alone') => {
    const all = [...idle[side], ...rows[side]];
    return { pid: sides[side].inst.proc.pid, blocks: all.flatMap((r) => r.blocks), cpu: all.flatMap((r) => r.series) };
  };
  fs.writeFileSync(BLOCKS_OUT, JSON.stringify({ big: of('big'), alone: of('alone') }));
}
await intake.ask({ stop: true }, 'stopped');
await big.close();
await alone.close();
await sink.close();
process.exit(0);
