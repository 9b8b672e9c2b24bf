// Gateway intake (verify + de-duplicate + store + enqueue) against a bare node:http server that
// verifies the same HMAC and inserts the same document with the raw driver, in the same run.
// Peak: closed loop at BENCH_CONCURRENCY. Then open loop at half of our peak rate for p99.
// Relay and the baseline each run in a process of their own (bench/lib/gatewayTarget.ts), as a
// service does; this process only generates load, so its garbage is not counted as theirs.
// Last, the CPU one accepted delivery costs from request to processed (API process with its worker,
// and the database), against an unauthenticated 404 in the same run; BENCH_ONLY=cpu runs only that,
// BENCH_RULE=log adds a rule with an action (the scale bench's).
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { machineLine, startBenchDatabase } from './lib/runtime.ts';
import { percentile } from './lib/load.ts';
import type { GcReport, TargetReady } from './lib/gatewayTarget.ts';
import { MongoClient } from 'mongodb';
import { signedGatewayDelivery } from './lib/gatewayDelivery.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const OPEN_LOOP_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 8);
const SECRET = 'bench-secret-0123456789';

const database = await startBenchDatabase();
const uri = database.uri;

interface Target {
  url: string;
  child: ChildProcess;
  gc(): Promise<GcReport>;
  close(): Promise<void>;
}
const targetScript = fileURLToPath(new URL('./lib/gatewayTarget.ts', import.meta.url));
async function startTarget(side: 'relay' | 'relay-worker' | 'baseline', targetUri = uri): Promise<Target> {
  const child = fork(targetScript, [side], { execArgv: ['--import', 'tsx'], env: { ...process.env, MONGODB_URI: targetUri, GATEWAY_BENCH_SECRET: SECRET } });
  // A bench that fails must not leave its targets running (they would hold the caller's pipe open).
  process.on('exit', () => child.kill());
  const ready = await new Promise<TargetReady>((resolve, reject) => {
    child.once('message', (m) => resolve(m as TargetReady));
    child.once('exit', (code) => reject(new Error(`${side} exited with ${code} before it listened`)));
  });
  return {
    url: ready.url,
    child,
    gc: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { gc: GcReport }).gc));
        child.send({ report: true });
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ close: true });
      }),
  };
}

function delivery(): { body: string; headers: Record<string, string> } {
  const { body, headers } = signedGatewayDelivery(SECRET);
  return { body, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function post(url: string, { body, headers } = delivery()): Promise<{ ms: number; ok: boolean }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ok: res.statusCode === 202 }));
    });
    req.on('error', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ok: false }));
    req.end(body);
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}
const figures = (latencies: number[], errors: number, seconds: number): Figures => {
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), requests: latencies.length, errors };
};

async function closedLoop(url: string, requests: number): Promise<Figures> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const deadline = Date.now() + 60_000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (issued++ < requests && Date.now() < deadline) {
        const r = await post(url);
        latencies.push(r.ms);
        if (!r.ok) errors++;
      }
    }),
  );
  return figures(latencies, errors, (Date.now() - started) / 1000);
}

/**
 * Fixed arrival rate regardless of answers (what a sender does), for `seconds`. The requests are
 * built (and signed) before the clock starts, so the generator's own work is not on the timed path.
 */
async function openLoop<T>(rate: number, seconds: number, build: () => T, send: (request: T) => Promise<{ ms: number; ok: boolean }>): Promise<Figures & { latencies: number[] }> {
  const latencies: number[] = [];
  let errors = 0;
  const requests = Array.from({ length: Math.floor(rate * seconds) }, build);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (const [i, request] of requests.entries()) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(request).then((r) => void (latencies.push(r.ms), r.ok || errors++)));
  }
  await Promise.all(pending);
  return { ...figures(latencies, errors, (performance.now() - started) / 1000), latencies };
}

/**
 * What one accepted delivery costs, request to processed: CPU of the API process (its worker
 * included) and of the database, per delivery, against an unauthenticated request (404, unknown
 * source) sent at the same rate to the same process in the same run. CPU seconds, not wall clock,
 * so the other work on the machine moves it little. Sends `count` of each at `rate`, then waits
 * until the worker has processed every delivery (the wait's idle polling is counted too).
 */
const CPU_RATE = Number(process.env.BENCH_CPU_RATE ?? 200);
const CPU_COUNT = Number(process.env.BENCH_CPU_COUNT ?? 2000);
async function cpuPerDelivery(): Promise<void> {
  const target = await startTarget('relay-worker');
  const counter = await MongoClient.connect(uri);
  // Processed, and every action the rules planned has finished.
  const unprocessed = async () =>
    (await counter.db().collection('gatewayDeliveries').countDocuments({ processedAt: null })) +
    (await counter.db().collection('gatewayActionOutcomes').countDocuments({ status: { $in: ['pending', 'running', 'retrying'] } }));
  const unknownSource = target.url.replace(/\/relay$/, '/no-such-source');
  const measure = async (send: () => Promise<unknown>) => {
    await new Promise((r) => setTimeout(r, 2000));
    await target.gc();
    const dbFrom = database.cpuMs();
    await send();
    const report = await target.gc();
    return { api: report.cpuMs / CPU_COUNT, db: (database.cpuMs() - dbFrom) / CPU_COUNT, loopP99: report.loopP99Ms, loopMax: report.loopMaxMs };
  };
  // Once each unmeasured first, so both measured rounds run warm code.
  await openLoop(CPU_RATE, 200 / CPU_RATE, delivery, (r) => post(unknownSource, r));
  await openLoop(CPU_RATE, 200 / CPU_RATE, delivery, (r) => post(target.url, r));
  while ((await unprocessed()) > 0) await new Promise((r) => setTimeout(r, 250));
  const notFound = await measure(() => openLoop(CPU_RATE, CPU_COUNT / CPU_RATE, delivery, (r) => post(unknownSource, r)));
  let failed = 0;
  const accepted = await measure(async () => {
    failed = (await openLoop(CPU_RATE, CPU_COUNT / CPU_RATE, delivery, (r) => post(target.url, r))).errors;
    while ((await unprocessed()) > 0) await new Promise((r) => setTimeout(r, 250));
  });
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  console.log(`CPU per request, ${CPU_COUNT} at ${CPU_RATE}/s, the API process with its worker${process.env.BENCH_RULE === 'log' ? ', the scale bench\'s rule (one log action)' : ', no rules'}:`);
  console.log(`  unauthenticated 404 (baseline): API ${ms(notFound.api)}, database ${ms(notFound.db)}`);
  console.log(`  accepted delivery, until processed: API ${ms(accepted.api)} (${(accepted.api / notFound.api).toFixed(1)}x), database ${ms(accepted.db)} (${(accepted.db / notFound.db).toFixed(1)}x); ${failed} not accepted`);
  // A process job that plans a long batch without yielding shows in the API's event loop.
  console.log(`  event loop delay p99 ${ms(accepted.loopP99)}, max ${ms(accepted.loopMax)}`);
  console.log(`  at ${CPU_RATE}/s that is ${(((accepted.api + accepted.db) * CPU_RATE) / 1000).toFixed(2)} cores (API ${((accepted.api * CPU_RATE) / 1000).toFixed(2)}, database ${((accepted.db * CPU_RATE) / 1000).toFixed(2)})`);
  await counter.close();
  await target.close();
}
if (process.env.BENCH_ONLY === 'cpu') {
  await cpuPerDelivery();
  agent.destroy();
  await database.close();
  process.exit(0);
}

const baseline = await startTarget('baseline');
const relay = await startTarget('relay');
const baselineUrl = baseline.url;
const oursUrl = relay.url;

/**
 * The database alone: the same document inserted with the raw driver from this process at the same
 * rate, no HTTP and no server process. Its p99 is the floor under both sides' (docs/BENCHMARKS.md).
 */
const floorClient = await MongoClient.connect(uri);
const floorCollection = floorClient.db().collection('benchFloorDeliveries');
await floorCollection.createIndex({ source: 1, deliveryId: 1 }, { unique: true });
const floorDocument = () => {
  const { body, headers } = delivery();
  return { id: randomUUID(), source: 'relay', deliveryId: headers['x-service-delivery-id'], event: 'conversation.started', test: false, headers, rawBody: Buffer.from(body), run: 0, processedRun: -1, processedAt: null };
};
async function insertTimed(doc: ReturnType<typeof floorDocument>): Promise<{ ms: number; ok: boolean }> {
  const started = process.hrtime.bigint();
  const ok = await floorCollection.insertOne({ ...doc, receivedAt: new Date() }).then(
    () => true,
    () => false,
  );
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, ok };
}

const line = (name: string, f: Figures) =>
  `${name.padEnd(40)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  (${f.requests} requests, ${f.errors} errors)`;

await closedLoop(baselineUrl, 1000);
await closedLoop(oursUrl, 1000);
// Alternate rounds so a noisy neighbour on the shared cores hits both sides alike; report medians.
const ROUNDS = 3;
const baseRounds: Figures[] = [];
const oursRounds: Figures[] = [];
for (let round = 0; round < ROUNDS; round++) {
  baseRounds.push(await closedLoop(baselineUrl, Math.ceil(REQUESTS / ROUNDS)));
  oursRounds.push(await closedLoop(oursUrl, Math.ceil(REQUESTS / ROUNDS)));
}
const median = (rounds: Figures[]) => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;
const basePeak = median(baseRounds);
const oursPeak = median(oursRounds);
const ratios = oursRounds.map((o, i) => o.rps / baseRounds[i]!.rps);
// BENCH_OPEN_RATE fixes the open loop's rate (to compare changes at one load) instead of half our peak.
const halfRate = Number(process.env.BENCH_OPEN_RATE ?? oursPeak.rps / 2);
// Let the database finish what the peak phase left (SQLite checkpoints) before timing latency.
const settle = () => new Promise((r) => setTimeout(r, 3000));
// Two rounds a side in the order baseline, relay, relay, baseline: the later phases of a run were
// slower for whichever side ran them, so each side gets an early and a late slot. p99 over both.
interface HalfLoad {
  latencies: number[];
  errors: number;
  seconds: number;
  gc: GcReport;
  /** CPU of the database server over the side's rounds. */
  dbCpuMs: number;
}
const noGc = (): GcReport => ({ pauses: 0, totalMs: 0, maxMs: 0, cpuMs: 0, loopP99Ms: 0, loopMaxMs: 0 });
const half: Record<'baseline' | 'relay', HalfLoad> = {
  baseline: { latencies: [], errors: 0, seconds: 0, gc: noGc(), dbCpuMs: 0 },
  relay: { latencies: [], errors: 0, seconds: 0, gc: noGc(), dbCpuMs: 0 },
};
const floorLatencies: number[] = [];
let floorErrors = 0;
let floorSeconds = 0;
async function floorRound(): Promise<void> {
  await settle();
  const round = await openLoop(halfRate, OPEN_LOOP_SECONDS / 4, floorDocument, insertTimed);
  floorLatencies.push(...round.latencies);
  floorErrors += round.errors;
  floorSeconds += round.requests / round.rps;
}
await floorRound();
for (const side of ['baseline', 'relay', 'relay', 'baseline'] as const) {
  const target = side === 'relay' ? relay : baseline;
  await settle();
  await target.gc();
  const dbFrom = database.cpuMs();
  const round = await openLoop(halfRate, OPEN_LOOP_SECONDS / 2, delivery, (request) => post(target.url, request));
  const h = half[side];
  h.dbCpuMs += database.cpuMs() - dbFrom;
  const gc = await target.gc();
  h.latencies.push(...round.latencies);
  h.errors += round.errors;
  h.seconds += round.requests / round.rps;
  h.gc = {
    pauses: h.gc.pauses + gc.pauses,
    totalMs: h.gc.totalMs + gc.totalMs,
    maxMs: Math.max(h.gc.maxMs, gc.maxMs),
    cpuMs: h.gc.cpuMs + gc.cpuMs,
    loopP99Ms: Math.max(h.gc.loopP99Ms, gc.loopP99Ms),
    loopMaxMs: Math.max(h.gc.loopMaxMs, gc.loopMaxMs),
  };
}
await floorRound();
const floorHalf = figures(floorLatencies, floorErrors, floorSeconds);
const baseHalf = figures(half.baseline.latencies, half.baseline.errors, half.baseline.seconds);
const oursHalf = figures(half.relay.latencies, half.relay.errors, half.relay.seconds);
const baseGc = half.baseline.gc;
const oursGc = half.relay.gc;

console.log(`gateway intake benchmark — ${machineLine()}`);
console.log(`peak: closed loop, ${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${Math.ceil(REQUESTS / ROUNDS)} requests (median round shown)`);
console.log(line('baseline node:http + raw driver', basePeak));
console.log(line('relay gateway intake', oursPeak));
console.log(`ratio relay/baseline per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!.toFixed(2)}x req/s`);
console.log(`half of relay's peak: open loop at ${halfRate.toFixed(0)} req/s, ${OPEN_LOOP_SECONDS} s a side in two rounds (baseline, relay, relay, baseline)`);
console.log(line('baseline node:http + raw driver', baseHalf));
console.log(line('relay gateway intake', oursHalf));
console.log(line('database alone: raw insertOne, no HTTP', floorHalf) + ` (${OPEN_LOOP_SECONDS / 2} s, half before and half after the sides)`);
const gcLine = (g: GcReport) => `${g.pauses} GC pauses, ${g.totalMs.toFixed(0)} ms in all, longest ${g.maxMs.toFixed(1)} ms`;
console.log(`during the half-load phase: baseline ${gcLine(baseGc)}; relay ${gcLine(oursGc)}`);
// Share of one core over the side's rounds, per process: where the machine's two cores went.
const cores = (ms: number, h: HalfLoad) => `${((ms / 1000 / h.seconds) * 100).toFixed(0)} %`;
const cpuLine = (h: HalfLoad) => `server ${cores(h.gc.cpuMs, h)} (event-loop delay p99 ${h.gc.loopP99Ms.toFixed(1)} ms, max ${h.gc.loopMaxMs.toFixed(1)} ms), database ${cores(h.dbCpuMs, h)}`;
console.log(`CPU, share of one core: baseline ${cpuLine(half.baseline)}; relay ${cpuLine(half.relay)}`);

await Promise.all([baseline.close(), relay.close(), floorClient.close()]);
await cpuPerDelivery();
agent.destroy();
await database.close();
