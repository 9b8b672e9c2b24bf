// The chat index of one large data source (issue 17/18): what the first question after a process
// start and after a 1 % re-sync costs the process that answers, and what the index holds.
//   [BENCH_NODE_ARGS=...] node --import tsx bench/knowledge-index.ts --dir DIR [--rows 10000] [--code ROOT[,ROOT...]] [--rounds 2] [--embeddings]
// --embeddings syncs with an embedding model (bench/lib/embeddingsServer.ts, BENCH_VECTOR_DIMS; a
// 2-minute timeout, so a loaded machine fails no sync), so the index loaded holds each chunk's
// vectors too (seed DIR with the flag: it keeps what it seeded).
// DIR keeps the embedded database and the seeded tenant (seeded through the real API and sync on
// the first run, reused after). Each round runs one measuring process per code root, alternately
// (A/B on the same data, same minutes): it connects to the database, loads ROOT's
// src/knowledge/service.ts and measures, with --expose-gc: the cold question's CPU, heap used +
// array buffers after GC with the index held, then three times a 1 % re-sync (through this
// process's API and worker) and the next question's CPU, heap and peak RSS. Every figure is CPU or
// bytes, not wall time, so the machine's load matters little. The hits of fixed questions are
// hashed, so codes that answer differently show it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { stringFlag, numberFlag } from './lib/args.ts';

const here = path.join(import.meta.dirname, '..');
const mib = (bytes: number) => bytes / 2 ** 20;
interface Keys {
  botId: string;
  channelId: string;
  secretKey: string;
  dataSourceId: string;
  rowIds: string[];
  /** Each row's number in its seeded name and text (scaleTenant.ts markdown). */
  numbers: number[];
}
const QUESTIONS = ['word tokens in item 17', 'how many items are there', 'Item 4242', 'edited content of the last rows'];

if (process.argv.includes('--child')) await child();
else await parent();

async function parent(): Promise<void> {
  const dir = path.resolve(stringFlag('dir', ''));
  if (!stringFlag('dir', '')) throw new Error('usage: bench/knowledge-index.ts --dir DIR [--rows N] [--code ROOT,...] [--rounds R]');
  const rows = numberFlag('rows', 10_000);
  const codes = stringFlag('code', here).split(',').map((r) => path.resolve(r));
  const rounds = numberFlag('rounds', 2);
  fs.mkdirSync(dir, { recursive: true });
  const { startBenchRuntime } = await import('./lib/runtime.ts');
  const { provisionTenant } = await import('../src/platform/service.ts');
  const { clientFor, markdown } = await import('./lib/scaleTenant.ts');
  const { syncAndWait } = await import('./lib/sync.ts');
  const embeddings = process.argv.includes('--embeddings') ? await startEmbeddingsServer() : null;
  const bench = await startBenchRuntime({ dataDir: path.join(dir, 'db'), env: { JOB_PROCESS_EVERY_MS: '50', ...(embeddings ? { EMBEDDING_MODEL: 'bench-embedding', OPENAI_BASE_URL: embeddings.url, EMBEDDING_TIMEOUT_MS: '120000' } : {}) } });
  const keysFile = path.join(dir, 'keys.json');
  let keys: Keys;
  if (fs.existsSync(keysFile)) keys = JSON.parse(fs.readFileSync(keysFile, 'utf8'));
  else {
    const t = await provisionTenant({ plan: 'enterprise' });
    const api = clientFor(bench.baseUrl, t);
    const dataSourceId = (await api.dataSources.create()).id;
    for (let b = 0; b < rows; b += 100) {
      await api.rows.add(dataSourceId, Array.from({ length: Math.min(100, rows - b) }, (_, i) => ({ name: `item-${b + i}.md`, content: markdown(b + i) })));
    }
    await syncAndWait(api, dataSourceId, 100);
    const rowIds: string[] = [];
    const numbers: number[] = [];
    for await (const row of api.rows.iterate(dataSourceId)) {
      rowIds.push(row.id);
      numbers.push(Number(/item-(\d+)/.exec(row.name)![1]));
    }
    keys = { botId: t.botId, channelId: t.channelId, secretKey: t.secretKey, dataSourceId, rowIds, numbers };
    fs.writeFileSync(keysFile, JSON.stringify(keys));
  }
  process.stdout.write(`bench/knowledge-index.ts: ${keys.rowIds.length} rows${embeddings ? ` with ${process.env.BENCH_VECTOR_DIMS ?? 384}-dim vectors` : ''}, codes ${codes.join(' | ')}; load average ${os.loadavg()[0]!.toFixed(1)}, ${os.cpus().length} cores, Node ${process.version}\n`);
  const results: Array<Record<string, number | string>> = [];
  for (let round = 0; round < rounds; round++) {
    for (const code of codes) {
      // Not spawnSync: this process serves the child's re-syncs meanwhile.
      // BENCH_NODE_ARGS: more flags for the measuring process (e.g. --cpu-prof).
      const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
      const proc = spawn(process.execPath, [...nodeArgs, '--expose-gc', '--import', 'tsx', path.join(here, 'bench/knowledge-index.ts'), '--child'], {
        env: { ...process.env, BENCH_CODE: code, BENCH_URI: bench.uri, BENCH_BASE_URL: bench.baseUrl, BENCH_KEYS: keysFile },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const status = await new Promise<number | null>((resolve) => proc.on('close', resolve));
      const line = stdout.trim().split('\n').pop() ?? '';
      if (status !== 0 || !line.startsWith('{')) throw new Error(`child for ${code} failed (${status}): ${stdout}`);
      const result = { code: path.basename(code), round, ...JSON.parse(line) } as Record<string, number | string>;
      results.push(result);
      process.stdout.write(`${JSON.stringify(result)}\n`);
    }
  }
  const columns = Object.keys(results[0]!).filter((k) => k !== 'code' && k !== 'round' && !/hits/i.test(k));
  process.stdout.write(`\n| code | round | ${columns.join(' | ')} | hits |\n|${' --- |'.repeat(columns.length + 3)}\n`);
  for (const r of results) process.stdout.write(`| ${r.code} | ${r.round} | ${columns.map((c) => r[c]).join(' | ')} | ${r.coldHits} ${r.hits} |\n`);
  await bench.close();
  embeddings?.process.kill();
}

/** The bench's OpenAI-compatible embeddings server, in a process of its own. */
async function startEmbeddingsServer() {
  const server = fork(path.join(here, 'bench/lib/embeddingsServer.ts'), [], { execArgv: ['--import', 'tsx'] });
  const url = await new Promise<string>((resolve) => server.once('message', (m: { url: string }) => resolve(m.url)));
  return { url, process: server };
}

async function child(): Promise<void> {
  const root = process.env.BENCH_CODE!;
  const keys = JSON.parse(fs.readFileSync(process.env.BENCH_KEYS!, 'utf8')) as Keys;
  const { connectDatabase, disconnectDatabase } = await import(`${root}/src/db/connection.ts`);
  const { searchKnowledge, liveSegments } = await import(`${root}/src/knowledge/service.ts`);
  const { clientFor, markdown } = await import('./lib/scaleTenant.ts');
  const { syncAndWait } = await import('./lib/sync.ts');
  await connectDatabase(process.env.BENCH_URI!);
  const api = clientFor(process.env.BENCH_BASE_URL!, keys);
  const gc = globalThis.gc!;
  const held = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return mib(m.heapUsed + m.arrayBuffers);
  };
  /** Peak RSS since the last reset (VmHWM; writing 5 to clear_refs resets it, Linux). */
  const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');
  const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
  const rss = () => mib(process.memoryUsage().rss);
  let heapPeak = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    heapPeak = Math.max(heapPeak, mib(m.heapUsed + m.arrayBuffers));
  }, 20);
  const cpuOf = async (fn: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  const ask = (q: string) => searchKnowledge(keys.botId, q, { limit: 5 });
  const out: Record<string, number | string> = {};
  /** What fixed questions get (ids, scores, texts), hashed: equal across codes when they answer alike. */
  const hitsHash = async () => {
    const hits: string[] = [];
    for (const q of QUESTIONS) hits.push(JSON.stringify((await ask(q)).map((h: { chunkId: string; score: number; text: string; heading: string | null; rowId: string }) => [h.chunkId, h.rowId, h.heading, h.score, h.text])));
    return createHash('sha256').update(hits.join('\n')).digest('hex').slice(0, 12);
  };
  const baseline = held();
  resetPeak();
  heapPeak = 0;
  // How long the build holds the event loop at a time (wall time, so the machine's load inflates it).
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  out.coldCpuMs = Math.round(await cpuOf(() => ask(QUESTIONS[0]!)));
  loop.disable();
  out.coldLoopMaxMs = Math.round(loop.max / 1e6);
  out.coldLoopP99Ms = Math.round(loop.percentile(99) / 1e6);
  out.heldMiB = +(held() - baseline).toFixed(1);
  out.coldPeakHeapMiB = +(heapPeak - baseline).toFixed(1);
  out.coldPeakRssMiB = Math.round(peakRss());
  // Chunks with vectors in the loaded index (0 without --embeddings).
  out.vectors = (await liveSegments(keys.botId)).reduce((n: number, s: { vectors: { size: number } | null }) => n + (s.vectors?.size ?? 0), 0);
  out.warmCpuMs = +(await cpuOf(() => ask(QUESTIONS[1]!))).toFixed(1);
  out.coldHits = await hitsHash();
  const update = async (edited: Array<{ id: string; name: string; content: string }>) => {
    for (let i = 0; i < edited.length; i += 100) await api.rows.update(keys.dataSourceId, edited.slice(i, i + 100));
  };
  for (let sync = 1; sync <= 3; sync++) {
    // A different 1 % of the rows each time, the same in every process (each puts them back at its end).
    const stamp = `s${sync}x`;
    await update(keys.rowIds.filter((_, i) => i % 100 === sync).map((id, i) => ({ id, name: `edited-${stamp}-${i}.md`, content: `${markdown(7_000_000 + i)}\n\nEdited content ${stamp}` })));
    await syncAndWait(api, keys.dataSourceId, 50);
    resetPeak();
    heapPeak = 0;
    const before = held();
    out[`resync${sync}CpuMs`] = Math.round(await cpuOf(() => ask(QUESTIONS[2]!)));
    out[`resync${sync}PeakHeapMiB`] = +(heapPeak - before).toFixed(1);
    out[`resync${sync}PeakRssMiB`] = Math.round(peakRss());
    out[`resync${sync}HeldMiB`] = +(held() - baseline).toFixed(1);
    // The edited rows' new text must be found, under the edit's stamp.
    const found = await ask(`Edited content ${stamp}`);
    if (!found.some((h: { text: string }) => h.text.includes(stamp))) throw new Error(`re-sync ${sync}: the edited text is not found`);
  }
  out.rssMiB = Math.round(rss());
  out.hits = await hitsHash();
  clearInterval(sampler);
  // The seeded rows back, so the next process starts from the same data.
  const back = keys.rowIds.flatMap((id, i) => (i % 100 >= 1 && i % 100 <= 3 ? [{ id, name: `item-${keys.numbers[i]}.md`, content: markdown(keys.numbers[i]!) }] : []));
  await update(back);
  await syncAndWait(api, keys.dataSourceId, 50);
  await disconnectDatabase();
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}
