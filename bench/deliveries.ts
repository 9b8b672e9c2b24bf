// Outgoing webhooks: sustained deliveries/s from events emitted on the bus to a loopback sink that
// answers 200 at once, and enqueue-to-first-attempt latency (delivery created → attempt 1's request
// started, from its result row: finished at minus duration), both for a burst emitted as fast as
// possible and at a steady rate of half the burst's, against a same-run baseline of plain signed
// fetch calls to the same sink.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createWebhook, setWebhookEnabled } from '../src/webhooks/service.ts';
import { AttemptModel, AttemptResultModel, DeliveryModel } from '../src/webhooks/model.ts';
import { signBody } from '../src/security/signature.ts';
import { trusted } from '../src/db/connection.ts';
import { paced } from './lib/load.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const HOOKS = Number(process.env.BENCH_HOOKS ?? 10);
const EMIT_CONCURRENCY = Number(process.env.BENCH_EMIT_CONCURRENCY ?? 8);
const BASELINE_CONCURRENCY = 64;
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 6);
const DEADLINE_MS = 120_000;

// The sink runs in its own process (bench/lib/sink.ts), for Relay and the baseline alike.
const sinkProcess = fork(fileURLToPath(new URL('./lib/sink.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
// A bench that fails must not leave its sink running (it would hold the caller's pipe open).
process.on('exit', () => sinkProcess.kill());
const sinkUrl = await new Promise<string>((resolve) => sinkProcess.once('message', (m) => resolve((m as { url: string }).url)));
/** How many requests the sink has answered so far. */
const sinkCount = () =>
  new Promise<number>((resolve) => {
    sinkProcess.once('message', (m) => resolve((m as { received: number }).received));
    sinkProcess.send({ count: true });
  });

const progress = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
progress('starting runtime');
const bench = await startBenchRuntime({ env: { JOB_PROCESS_EVERY_MS: '1000' } });
const ctx = bench.runtime.ctx;
const tenant = await provisionTenant({ team: 'bench', bot: 'bench' });
for (let i = 0; i < HOOKS; i++) {
  const { webhook } = await createWebhook(ctx, tenant.botId, { type: 'conversation.started', url: sinkUrl });
  await setWebhookEnabled(tenant.botId, webhook.id, true);
}

const payload = () => ({
  event: 'conversation.started',
  timestamp: new Date().toISOString(),
  conversation: { id: crypto.randomUUID(), botId: tenant.botId, botName: 'bench', channelType: 'api', createdAt: new Date().toISOString() },
});

async function emitAll(events: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: EMIT_CONCURRENCY }, async () => {
      while (next < events) {
        next++;
        await ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: payload() });
      }
    }),
  );
}

/** Waits until the sink has seen `total` more requests (no database polling in the measured window), then for the records. */
async function untilDelivered(from: number, total: number): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  const target = from + total;
  let received: number;
  while ((received = await sinkCount()) < target) {
    if (Date.now() > deadline) {
      const done = new Set((await AttemptResultModel.find({ status: 'succeeded' }, { deliveryId: 1 }).lean()).map((r) => r.deliveryId));
      const stuck = (await DeliveryModel.find({}).lean()).filter((d) => !done.has(d.id));
      const attempts = await AttemptModel.find({ deliveryId: trusted({ $in: stuck.map((d) => d.id) }) }).lean();
      throw new Error(`sink saw ${received - target + total} of ${total} in time: ${JSON.stringify({ stuck, attempts })}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits until every delivery has its outcome recorded: a succeeded result row (the row itself stays fresh). */
async function untilRecorded(total: number): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while ((await AttemptResultModel.countDocuments({ status: 'succeeded' })) < total) {
    if (Date.now() > deadline) throw new Error(`outcomes were not recorded in time: ${JSON.stringify(await AttemptResultModel.aggregate([{ $group: { _id: '$status', n: { $sum: 1 } } }]))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

// Warm-up: connections, JIT, indexes.
progress('warm-up');
const warmFrom = await sinkCount();
await emitAll(10);
await untilDelivered(warmFrom, 10 * HOOKS);
await untilRecorded(10 * HOOKS);
await AttemptModel.deleteMany({});
await AttemptResultModel.deleteMany({});
await DeliveryModel.deleteMany({});

const total = EVENTS * HOOKS;
progress(`measuring ${total} deliveries`);
const from = await sinkCount();
const started = performance.now();
// Load-independent beside the rate: CPU time of the database process and of this one (the sink is
// its own process) from the first emit until every result is recorded.
const dbCpuFrom = bench.dbCpuMs();
const cpuFrom = process.cpuUsage();
await emitAll(EVENTS);
await untilDelivered(from, total);
const elapsedMs = performance.now() - started;
await untilRecorded(total);
const burstDbCpuMs = bench.dbCpuMs() - dbCpuFrom;
const burstCpu = process.cpuUsage(cpuFrom);
const relayRate = total / (elapsedMs / 1000);

/** When each delivery's first request started, by delivery id (its claim was written with the delivery, before). */
async function firstRequestStarts(since: Date): Promise<Map<string, number>> {
  const results = await AttemptResultModel.find({ number: 1, finishedAt: trusted({ $gte: since }) }, { deliveryId: 1, finishedAt: 1, durationMs: 1 }).lean<
    Array<{ deliveryId: string; finishedAt: Date; durationMs: number }>
  >();
  return new Map(results.map((r) => [r.deliveryId, r.finishedAt.getTime() - r.durationMs]));
}

const deliveries = await DeliveryModel.find({}, { id: 1, createdAt: 1 }).lean<Array<{ id: string; createdAt: Date }>>();
const firstStarts = await firstRequestStarts(new Date(0));
const latencies = deliveries.map((d) => firstStarts.get(d.id)! - d.createdAt.getTime()).sort((a, b) => a - b);
const attempts = await AttemptResultModel.countDocuments({});

// Steady load: events at a fixed rate (half of the burst's delivery rate), as senders of real
// traffic arrive, for OPEN_SECONDS; latency of those deliveries only.
const openRate = relayRate / 2 / HOOKS;
const openEvents = Math.max(1, Math.round(openRate * OPEN_SECONDS));
const openFrom = await sinkCount();
const openStartedAt = new Date();
await paced(openEvents, openRate, () => ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: payload() }));
await untilDelivered(openFrom, openEvents * HOOKS);
await untilRecorded(total + openEvents * HOOKS);
const openDeliveries = await DeliveryModel.find({ createdAt: trusted({ $gte: openStartedAt }) }, { id: 1, createdAt: 1 }).lean<Array<{ id: string; createdAt: Date }>>();
const openStarts = await firstRequestStarts(openStartedAt);
const openLatencies = openDeliveries.map((d) => openStarts.get(d.id)! - d.createdAt.getTime()).sort((a, b) => a - b);

// Baseline: the same number of signed POSTs with fetch, no database, 64 at a time.
const body = JSON.stringify({ ...payload(), deliveryId: crypto.randomUUID() });
let sent = 0;
const baseStarted = performance.now();
await Promise.all(
  Array.from({ length: BASELINE_CONCURRENCY }, async () => {
    while (sent < total) {
      sent++;
      const res = await fetch(sinkUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, 'whsec_bench') },
        body,
      });
      await res.arrayBuffer();
    }
  }),
);
const baseRate = total / ((performance.now() - baseStarted) / 1000);

const lines = [
  `machine: ${machineLine()}`,
  `events: ${EVENTS} x ${HOOKS} enabled hooks = ${total} deliveries (${attempts} attempts), emitted ${EMIT_CONCURRENCY} at a time`,
  `relay deliveries: ${relayRate.toFixed(0)}/s (first event emitted -> last request received by the sink), ${(elapsedMs / 1000).toFixed(2)} s`,
  `CPU over the burst until every result is recorded: database ${burstDbCpuMs.toFixed(0)} ms, relay ${((burstCpu.user + burstCpu.system) / 1000).toFixed(0)} ms`,
  `enqueue-to-first-attempt: p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
  `steady load at half that rate (${(openRate * HOOKS).toFixed(0)} deliveries/s for ${OPEN_SECONDS} s, ${openLatencies.length} deliveries): enqueue-to-first-attempt p50 ${pct(openLatencies, 50).toFixed(1)} ms, p99 ${pct(openLatencies, 99).toFixed(1)} ms`,
  `baseline signed fetch: ${baseRate.toFixed(0)}/s (${BASELINE_CONCURRENCY} concurrent, no database)`,
  `ratio relay/baseline: ${(relayRate / baseRate).toFixed(2)}`,
  `sink received: ${await sinkCount()}`,
];
process.stdout.write(`${lines.join('\n')}\n`);

await bench.close();
await new Promise<void>((r) => {
  sinkProcess.once('exit', () => r());
  sinkProcess.send({ close: true });
});
