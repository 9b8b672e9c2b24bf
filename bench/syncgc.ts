// The API process's GC around a re-sync when it runs the jobs too (issue 17: the sync start < 50 ms
// in every run; `npm start`'s one process): the big bot's index held (knowledge/service.ts), then in
// cycles: 1 % of the rows edited, the sync started (timed, no forced GC before it, as bench/scale.ts
// starts it), the sync run to its end in this process, a question to the bot (its index brought up
// to the new run), and rows first pages (timed). Each phase's GC pauses by kind (PerformanceObserver),
// its CPU, and the heap after it; a full GC's pause with the index held (what a mark-compact costs).
// Uses bench/syncstart.ts's seeded DIR (run that once first).
//
//   node --expose-gc --import tsx bench/syncgc.ts --data-dir DIR [--cycles 4] [--pages 20] [--snapshot FILE]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { startFerretDb } from '../src/db/ferretdb.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createRuntime } from '../src/runtime.ts';
import { createApp } from '../src/http/app.ts';
import { createRelayClient } from '../src/client/index.ts';
import { DataSourceModel } from '../src/datasources/model.ts';
import { performSync } from '../src/datasources/sync.job.ts';
import { searchKnowledge } from '../src/knowledge/service.ts';
import { markdown } from './lib/scaleTenant.ts';
import { flag, numberFlag } from './lib/args.ts';

const CYCLES = numberFlag('cycles', 4);
const PAGES = numberFlag('pages', 20);
const dir = path.resolve(flag('data-dir') ?? '');
const seedFile = path.join(dir, 'seed.json');
if (!fs.existsSync(seedFile)) throw new Error(`${seedFile} not found: seed it with bench/syncstart.ts --data-dir DIR`);
const seed = JSON.parse(fs.readFileSync(seedFile, 'utf8')) as { channelId: string; secretKey: string; dataSourceId: string; rowIds: string[]; edits: number };
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_syncstart' });
const config = loadConfig({ MONGODB_URI: db.uri, ADMIN_TOKEN: 'bench-syncstart-admin-token-0123456', RETENTION_DAYS: '0', DATA_DIR: path.join(dir, 'data') });
const runtime = await createRuntime({ config, logger: createLogger('silent'), uri: db.uri, role: { api: true, worker: false } });
const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const api = createRelayClient({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, channelId: seed.channelId, secretKey: seed.secretKey, timeoutMs: 600_000 });
const { botId } = (await DataSourceModel.findById(seed.dataSourceId, { botId: 1 }).lean<{ botId: string }>())!;

interface Pause {
  kind: 'minor' | 'major' | 'other';
  ms: number;
}
const pauses: Pause[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail: { kind: number } }).detail.kind;
    pauses.push({ kind: kind === constants.NODE_PERFORMANCE_GC_MINOR ? 'minor' : kind === constants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'other', ms: e.duration });
  }
}).observe({ entryTypes: ['gc'] });

const MiB = (b: number) => (b / 2 ** 20).toFixed(0);
const f = (x: number) => x.toFixed(1);
/** Runs `work`, returning its wall ms and a line of the GC pauses, CPU and heap over it. */
async function phase<T>(name: string, work: () => Promise<T>): Promise<{ value: T; ms: number; line: string }> {
  const from = pauses.length;
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await work();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const mine = pauses.slice(from);
  const of = (k: Pause['kind']) => {
    const p = mine.filter((x) => x.kind === k);
    return `${p.length} (${f(p.reduce((n, x) => n + x.ms, 0))} ms, max ${f(Math.max(0, ...p.map((x) => x.ms)))})`;
  };
  const heap = process.memoryUsage();
  const line = `| ${name} | ${f(ms)} | ${f((used.user + used.system) / 1000)} | ${of('minor')} | ${of('major')} | ${of('other')} | ${MiB(heap.heapUsed)} / ${MiB(heap.heapTotal)} | ${MiB(heap.rss)} |`;
  return { value, ms, line };
}
const out: string[] = [];
const print = (line: string) => (out.push(line), process.stdout.write(`${line}\n`));
const header = () => {
  print('| phase | wall ms | CPU ms | scavenges (ms, max) | mark-compacts (ms, max) | other GC (ms, max) | heap used / total MiB | RSS MiB |');
  print('| --- | --- | --- | --- | --- | --- | --- | --- |');
};

/** A full GC's pause, and the heap after it: what a mark-compact with the index held costs. */
function fullGc(label: string): void {
  const from = pauses.length;
  const cpu = process.cpuUsage();
  gc!();
  const used = process.cpuUsage(cpu);
  const major = pauses.slice(from);
  const h = v8.getHeapStatistics();
  print(`${label}: forced full GC ${f((used.user + used.system) / 1000)} ms CPU (pauses ${major.map((p) => f(p.ms)).join(', ') || '-'}); heap used ${MiB(h.used_heap_size)} MiB, RSS ${MiB(process.memoryUsage().rss)} MiB`);
}

print(`bench/syncgc.ts, ${seed.rowIds.length} rows, load ${os.loadavg()[0]!.toFixed(2)}, node ${process.version} ${process.execArgv.join(' ')}`);
fullGc('before the index');
header();
print((await phase('first question (whole index)', () => searchKnowledge(botId, 'What about the item?'))).line);
fullGc('index held');
for (let k = 0; k < 3; k++) fullGc(`index held, again ${k + 1}`);
if (flag('snapshot')) v8.writeHeapSnapshot(flag('snapshot'));

// --profile FILE: a CPU profile of the cycles alone (the first, whole build left out).
const profiler = flag('profile') ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: 500 });
  await profiler.post('Profiler.start');
}
const starts: number[] = [];
const firstPages: number[] = [];
header();
for (let c = 0; c < CYCLES; c++) {
  const k = seed.edits++;
  const edited = seed.rowIds
    .filter((_, i) => i % 100 === k % 100)
    .map((id, i) => ({ id, name: `edited-${k}-${i}.md`, content: `${markdown(k * 1_000_000 + i)}\n\nEdited ${k}` }));
  print(
    (
      await phase(`${c + 1}: edit 1 %`, async () => {
        for (let i = 0; i < edited.length; i += 100) await api.rows.update(seed.dataSourceId, edited.slice(i, i + 100));
      })
    ).line,
  );
  const start = await phase(`${c + 1}: sync start`, () => api.dataSources.sync(seed.dataSourceId));
  starts.push(start.ms);
  print(start.line);
  print(
    (
      await phase(`${c + 1}: the sync to its end`, async () => {
        const ds = await DataSourceModel.findById(seed.dataSourceId, { syncRun: 1 }).lean<{ syncRun: number }>();
        const outcome = await performSync(runtime.ctx, { dataSourceId: seed.dataSourceId, run: ds!.syncRun });
        if (outcome !== 'done') throw new Error(`sync ended ${outcome}`);
      })
    ).line,
  );
  print((await phase(`${c + 1}: question (index to the new run)`, () => searchKnowledge(botId, `How does item ${k} relate?`))).line);
  for (let p = 0; p < PAGES; p++) {
    const page = await phase(`${c + 1}: rows first page ${p + 1}`, () => api.rows.list(seed.dataSourceId, { limit: 100 }));
    firstPages.push(page.ms);
    if (p < 3 || page.ms > 50) print(page.line);
  }
}
fs.writeFileSync(seedFile, JSON.stringify(seed));
if (profiler) fs.writeFileSync(flag('profile')!, JSON.stringify((await profiler.post('Profiler.stop')).profile));
fullGc('end');
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
print(`sync starts ms: ${starts.map(f).join(' ')}; rows first pages ms p50 ${f(sorted(firstPages)[firstPages.length >> 1]!)} max ${f(sorted(firstPages).at(-1)!)}; load ${os.loadavg()[0]!.toFixed(2)}`);
if (process.env.BENCH_OUT) fs.appendFileSync(process.env.BENCH_OUT, `${out.join('\n')}\n`);
server.close();
await runtime.shutdown();
await db.stop();
process.exit(0);
