// Sweeps (issue 17): does a recurring sweep's run cost what it finds to do, not what is stored?
// For each N, a fresh database holds N events (each fanned out to a webhook whose first attempt
// succeeded) and N gateway deliveries (each processed, its one action run), all finished. The first
// TEMPLATE of each go through the services' write paths; the rest are copies of those documents
// with new ids (bulk inserts), since seeding 150,000 of each one by one takes hours on a shared
// 2-core machine. The clock then moves an hour on, so every stored record is
// older than every grace period, a few unfinished records are left as a crash would leave them, and
// each sweep is timed: the run that finds them, then runs that find nothing. The database's own
// CPU time per run is reported beside the wall clock: it follows the rows the database reads and is
// less distorted by other load on the machine.
//
//   node --import tsx bench/sweeps.ts [--n 15000,150000] [--unfinished 5]
//   MONGODB_URI=mongodb://host/relay_sweeps node --import tsx bench/sweeps.ts   (a MongoDB you run)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Agent, fetch } from 'undici';
import { startBenchRuntime, machineLine, type BenchRuntime } from './lib/runtime.ts';
import { percentile } from './lib/load.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { signBody } from '../src/security/signature.ts';
import { createWebhook, setWebhookEnabled } from '../src/webhooks/service.ts';
import { mapLimit } from '../src/datasources/rows.ts';
import { timeOrderedId, type Clock } from '../src/clock.ts';
import { trusted } from '../src/db/connection.ts';
import { SweepMarkModel } from '../src/db/sweepWindow.ts';
import mongoose from 'mongoose';
import { EventDispatchModel, EventModel } from '../src/events/model.ts';
import { attemptKey, AttemptResultModel, DeliveryModel } from '../src/webhooks/model.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from '../src/gateway/model.ts';
import { performSweep as webhookSweep } from '../src/webhooks/sweep.job.ts';
import { performSweep as gatewaySweep } from '../src/gateway/sweep.job.ts';
import { performSyncSweep } from '../src/datasources/sweep.job.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const SIZES = (arg('n') ?? '15000,150000').split(',').map(Number);
const UNFINISHED = Number(arg('unfinished') ?? 5);
const TEMPLATE = Number(arg('template') ?? 2_000);
const progress = (line: string) => process.stderr.write(`[sweeps ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const GATEWAY_SECRET = 'bench-sweeps-gateway-secret';
const gatewayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-sweeps-'));
fs.mkdirSync(path.join(gatewayDir, 'rules'));
fs.writeFileSync(path.join(gatewayDir, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [GATEWAY_SECRET] } } }));
// One action per delivery, so the action outcomes grow with N too.
fs.writeFileSync(path.join(gatewayDir, 'rules', 'log.json'), JSON.stringify({ name: 'log-all', events: ['conversation.started'], actions: [{ type: 'log' }] }));
const ENV = { RETENTION_DAYS: '0', GATEWAY_CONFIG: path.join(gatewayDir, 'gateway.json'), RULES_DIR: path.join(gatewayDir, 'rules'), JOB_PROCESS_EVERY_MS: '200' };

const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200).end('ok'));
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/hook`;
const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 32 });

async function postGateway(baseUrl: string): Promise<void> {
  const body = JSON.stringify({ event: 'conversation.started', deliveryId: randomUUID(), timestamp: new Date().toISOString(), conversation: { id: randomUUID() } });
  const res = await fetch(`${baseUrl}/gateway/relay`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, GATEWAY_SECRET) }, dispatcher });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`gateway intake answered ${res.status}`);
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 30 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

type Sweep = [name: string, run: () => Promise<unknown>];
interface Figure {
  found: unknown;
  ms: number;
  dbMs: number;
  idleMs: number;
  idleDbMs: number;
}

async function timed(bench: BenchRuntime, run: () => Promise<unknown>): Promise<{ result: unknown; ms: number; dbMs: number }> {
  const cpu = bench.dbCpuMs();
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started, dbMs: bench.dbCpuMs() - cpu };
}

/** The SQLite plan lines of a query on the embedded FerretDB (SEARCH … USING INDEX, or SCAN). */
async function plan(cursor: { explain(): Promise<unknown> }): Promise<string> {
  const text = JSON.stringify(await cursor.explain());
  return [...new Set(text.match(/(SEARCH|SCAN) [^"\\]*/g) ?? [])].join('; ') || '(no SQLite plan: not the embedded FerretDB)';
}

/** Copies the finished records written so far (each event with its dispatch row, webhook delivery
 * and first attempt's result; each gateway delivery with its action outcome) under new ids until
 * there are n of each. */
async function replicate(n: number, seeded: number): Promise<void> {
  const events = await EventModel.collection.find({}).toArray();
  const dispatched = new Map((await EventDispatchModel.collection.find({}).toArray()).map((d) => [d._id as unknown as string, d]));
  const deliveries = new Map((await DeliveryModel.collection.find({}).toArray()).map((d) => [d.eventId as string, d]));
  const results = new Map((await AttemptResultModel.collection.find({ number: 1 }).toArray()).map((r) => [r.deliveryId as string, r]));
  const gateway = await GatewayDeliveryModel.collection.find({}).toArray();
  const actions = new Map((await ActionOutcomeModel.collection.find({}).toArray()).map((a) => [a.delivery as string, a]));
  for (let done = seeded; done < n; ) {
    const chunk = Math.min(2_000, n - done);
    const rows: Record<string, Array<Record<string, unknown>>> = { events: [], dispatches: [], deliveries: [], results: [], gateway: [], actions: [] };
    for (let i = 0; i < chunk; i++) {
      const e = events[(done + i) % events.length]!;
      const eventId = timeOrderedId();
      rows.events!.push({ ...e, _id: new mongoose.Types.ObjectId(), id: eventId });
      const mark = dispatched.get(e.id as string);
      if (mark) rows.dispatches!.push({ ...mark, _id: eventId });
      const d = deliveries.get(e.id as string);
      if (d) {
        const deliveryId = timeOrderedId();
        rows.deliveries!.push({ ...d, _id: deliveryId, id: deliveryId, eventId });
        const r = results.get(d.id as string);
        if (r) rows.results!.push({ ...r, _id: attemptKey(deliveryId, 1), deliveryId });
      }
      const g = gateway[(done + i) % gateway.length]!;
      const gatewayId = timeOrderedId();
      rows.gateway!.push({ ...g, _id: gatewayId, id: gatewayId, deliveryId: randomUUID() });
      const a = actions.get(g.id as string);
      if (a) {
        const actionId = timeOrderedId();
        rows.actions!.push({ ...a, _id: actionId, id: actionId, delivery: gatewayId });
      }
    }
    const into = [
      [EventModel, rows.events],
      [EventDispatchModel, rows.dispatches],
      [DeliveryModel, rows.deliveries],
      [AttemptResultModel, rows.results],
      [GatewayDeliveryModel, rows.gateway],
      [ActionOutcomeModel, rows.actions],
    ] as const;
    for (const [model, docs] of into) if (docs!.length) await (model as unknown as typeof EventModel).collection.insertMany(docs as never[], { ordered: false });
    done += chunk;
    if (done % 20_000 < chunk) progress(`copied up to ${done}`);
  }
}

async function measureSize(n: number): Promise<{ seedS: number; burst: Record<string, number>; figures: Map<string, Figure>; plans: string[] }> {
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
  const bench = await startBenchRuntime({ env: ENV, clock });
  const ctx = bench.runtime.ctx;
  // The bench runs each sweep itself: the worker's minutely runs would take the unfinished records first.
  for (const name of ['events.redispatch', 'webhooks.sweep', 'gateway.sweep', 'datasources.sweep']) await ctx.jobs.cancel({ name });
  try {
    const seedStarted = performance.now();
    const t = await provisionTenant({ plan: 'enterprise' });
    const { webhook } = await createWebhook(ctx, t.botId, { type: 'conversation.started', url: sinkUrl });
    await setWebhookEnabled(t.botId, webhook.id, true);
    const seeded = Math.min(n, TEMPLATE);
    await mapLimit(Array.from({ length: seeded }), 32, () => ctx.events.emit({ type: 'conversation.started', teamId: t.teamId, botId: t.botId, payload: { conversation: { id: randomUUID() } } }));
    progress(`n=${n}: events emitted`);
    await mapLimit(Array.from({ length: seeded }), 32, () => postGateway(bench.baseUrl));
    progress(`n=${n}: gateway deliveries accepted`);
    await ctx.events.flush();
    await until('first attempts and gateway processing', async () =>
      (await AttemptResultModel.countDocuments({})) >= seeded &&
      (await GatewayDeliveryModel.countDocuments({ processedAt: null })) === 0 &&
      (await ActionOutcomeModel.countDocuments({ status: 'pending' })) === 0,
    );
    await replicate(n, seeded);
    const seedS = (performance.now() - seedStarted) / 1000;
    progress(`n=${n}: seeded and finished in ${seedS.toFixed(0)} s`);

    // An hour on: every record is past every grace period, as in an install that has run a while.
    offsetMs = 60 * 60_000;
    // The first event and fresh-webhook runs after the burst walk a full batch of finished rows
    // from where their window stopped (they check rows created since their last run).
    const burst = {
      'events (1,000 finished events since its last run)': (await timed(bench, () => ctx.events.redispatchStale(30_000))).ms,
      'webhooks (5,000 fresh deliveries since its last run)': (await timed(bench, () => webhookSweep(ctx, 60_000))).ms,
    };
    // Then their windows stand where minutely runs would have left them: at their cutoff now.
    const now = clock.now().getTime();
    await SweepMarkModel.updateOne({ _id: 'events.dispatch' }, { $set: { at: new Date(now - 30_000), afterId: null } }, { upsert: true });
    await SweepMarkModel.updateOne({ _id: 'webhooks.fresh-deliveries' }, { $set: { at: new Date(now - 60_000), afterId: null } }, { upsert: true });

    // A few unfinished records, as a process that died between two writes leaves them.
    const at = new Date(clock.now().getTime() - 5_000);
    for (let i = 0; i < UNFINISHED; i++) {
      const event = new EventModel({ id: timeOrderedId(), type: 'conversation.started', teamId: t.teamId, botId: t.botId, payload: { conversation: { id: randomUUID() } }, createdAt: at });
      await EventModel.collection.insertOne(event.toObject() as never); // stored, never dispatched
      const id = timeOrderedId();
      const body = Buffer.from('{}');
      await GatewayDeliveryModel.create({ id, source: 'relay', deliveryId: randomUUID(), event: 'conversation.started', test: false, headers: {}, rawBody: body, receivedAt: at, sweptAt: at }); // never queued
      const outcome = timeOrderedId();
      await ActionOutcomeModel.create({ id: outcome, delivery: randomUUID(), run: 0, rule: 'log-all', index: 0, type: 'log', spec: { type: 'log' }, status: 'pending', createdAt: at, sweptAt: at }); // never run
    }
    // Settled rows whose retry was never scheduled.
    const stranded = await DeliveryModel.find({}, { _id: 1 }).limit(UNFINISHED).lean<Array<{ _id: string }>>();
    await DeliveryModel.updateMany({ _id: trusted({ $in: stranded.map((d) => d._id) }) }, { $set: { fresh: false, status: 'pending', nextAttemptAt: at } });

    // Past every grace period of the unfinished ones (the gateway's is two minutes).
    offsetMs += 3 * 60_000;
    const cutoff = new Date(clock.now().getTime() - 120_000);
    const plans = [
      `gateway deliveries: ${await plan(GatewayDeliveryModel.find({ processedAt: null, sweptAt: trusted({ $lt: cutoff }) }).limit(500))}`,
      `gateway actions: ${await plan(ActionOutcomeModel.find({ status: 'pending', sweptAt: trusted({ $lt: cutoff }) }).limit(500))}`,
      `webhook settled rows: ${await plan(DeliveryModel.find({ status: 'pending', fresh: false, nextAttemptAt: trusted({ $lt: cutoff }) }).limit(500))}`,
      `event window: ${await plan(EventModel.find({ dispatchedAt: null, createdAt: trusted({ $gte: at, $lt: cutoff }) }).sort({ createdAt: 1, _id: 1 }).limit(1000))}`,
    ];
    const sweeps: Sweep[] = [
      // The settled-row query as it was before the (status, fresh, nextAttemptAt) index: every fresh
      // row (a delivery whose first attempt succeeded) past the grace period is read and dropped.
      ['(former webhook settled-row query, fresh: { $ne: true })', async () => (await DeliveryModel.find({ status: 'pending', fresh: trusted({ $ne: true }), nextAttemptAt: trusted({ $lt: cutoff }) }, { id: 1 }).limit(500).lean()).length],
      ['events', () => ctx.events.redispatchStale(30_000)],
      ['webhooks', () => webhookSweep(ctx, 60_000)],
      ['gateway', () => gatewaySweep(ctx, 120_000)],
      ['syncs', () => performSyncSweep(ctx)],
    ];
    const figures = new Map<string, Figure>();
    for (const [name, run] of sweeps) {
      const first = await timed(bench, run);
      const idle: Array<{ ms: number; dbMs: number }> = [];
      for (let i = 0; i < 5; i++) idle.push(await timed(bench, run));
      const med = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
      figures.set(name, { found: first.result, ms: first.ms, dbMs: first.dbMs, idleMs: med(idle.map((x) => x.ms)), idleDbMs: med(idle.map((x) => x.dbMs)) });
    }
    return { seedS, burst, figures, plans };
  } finally {
    await bench.close();
  }
}

const lines: string[] = [];
const print = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
progress(machineLine());
const results = [];
for (const n of SIZES) results.push({ n, ...(await measureSize(n)) });

print(`## bench/sweeps.ts (${process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded FerretDB'}), ${UNFINISHED} unfinished of each kind`);
print(`Machine: ${machineLine()}; load average after the run ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
print(`Seeded (events with webhook deliveries, gateway deliveries with one action each, all finished; the first ${TEMPLATE} of each through the services, the rest copies): ${results.map((r) => `N=${r.n} in ${r.seedS.toFixed(0)} s`).join(', ')}`);
print('');
print(`| Sweep | ${results.map((r) => `N=${r.n}: finds | ms | db CPU ms | idle ms | idle db CPU ms`).join(' | ')} |`);
print(`| --- | ${results.map(() => '--- | --- | --- | --- | ---').join(' | ')} |`);
for (const name of results[0]!.figures.keys()) {
  const cells = results.map((r) => {
    const f = r.figures.get(name)!;
    return `${JSON.stringify(f.found)} | ${f.ms.toFixed(0)} | ${f.dbMs.toFixed(0)} | ${f.idleMs.toFixed(0)} | ${f.idleDbMs.toFixed(0)}`;
  });
  print(`| ${name} | ${cells.join(' | ')} |`);
}
print('');
print(`First run after the seeding burst (ms): ${results.map((r) => `N=${r.n}: ${Object.entries(r.burst).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`).join('; ')}`);
print('');
for (const r of results) for (const p of r.plans) print(`- N=${r.n} ${p}`);
sink.close();
fs.rmSync(gatewayDir, { recursive: true, force: true });
process.exit(0);
