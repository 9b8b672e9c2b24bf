// Sweeps and retention (issue 17): does a recurring sweep's or a retention run's cost follow what
// it finds to do, not what is stored? For each N, a fresh database holds N events (each fanned out
// to a webhook whose first attempt succeeded) and N gateway deliveries (each processed, its one
// action run), all finished. The first TEMPLATE of each go through the services' write paths; the
// rest are copies of those documents with new ids (bulk inserts), since seeding 150,000 of each one
// by one takes hours on a shared 2-core machine. The clock then moves an hour on, so every stored
// record is older than every grace period, a few unfinished records are left as a crash would
// leave them, a backlog of gateway deliveries queued and not yet processed is added (work the
// sweep must not read), and each sweep is timed: the run that finds them, then runs that find
// nothing. Load-independent figures beside the wall clock: the database's own CPU time per run
// (it follows the rows the database reads), Relay's database operations per run (mongoose's debug
// hook: every collection call, Agenda's own excluded) and the SQLite plan of each query.
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
import mongoose from 'mongoose';
import { EventDispatchFailureModel, EventModel, UndispatchedEventModel } from '../src/events/model.ts';
import { attemptKey, AttemptResultModel, DeliveryModel, UnfinishedFirstAttemptsModel } from '../src/webhooks/model.ts';
import { pruneDeliveries } from '../src/webhooks/retention.ts';
import { pruneGateway } from '../src/gateway/retention.ts';
import { pruneEvents } from '../src/events/retention.ts';
import { ActionOutcomeModel, GatewayDeliveryBodyModel, GatewayDeliveryModel, ResyncAttemptModel } from '../src/gateway/model.ts';
import { performSweep as webhookSweep } from '../src/webhooks/sweep.job.ts';
import { performSweep as gatewaySweep } from '../src/gateway/sweep.job.ts';
import { performSyncSweep } from '../src/datasources/sweep.job.ts';
import { flag } from './lib/args.ts';

const SIZES = (flag('n') ?? '15000,150000').split(',').map(Number);
const UNFINISHED = Number(flag('unfinished') ?? 5);
/** Gateway deliveries queued and waiting for the worker, as a backlog leaves them: a tenth of N. */
const BACKLOG_SHARE = Number(flag('backlog') ?? 0.1);
const TEMPLATE = Number(flag('template') ?? 2_000);
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
  ops: number;
  idleMs: number;
  idleDbMs: number;
  idleOps: number;
}

/** Relay's database operations (every mongoose collection call; Agenda's own are not counted). */
let operations = 0;
mongoose.set('debug', () => void operations++);

async function timed(bench: BenchRuntime, run: () => Promise<unknown>): Promise<{ result: unknown; ms: number; dbMs: number; ops: number }> {
  const cpu = bench.dbCpuMs();
  const ops = operations;
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started, dbMs: bench.dbCpuMs() - cpu, ops: operations - ops };
}

/** The SQLite plan lines of a query on the embedded FerretDB (SEARCH … USING INDEX, or SCAN). */
async function plan(cursor: { explain(): Promise<unknown> }): Promise<string> {
  const text = JSON.stringify(await cursor.explain());
  return [...new Set(text.match(/(SEARCH|SCAN) [^"\\]*/g) ?? [])].join('; ') || '(no SQLite plan: not the embedded FerretDB)';
}

/** Copies the finished records written so far (each event with its webhook delivery
 * and first attempt's result; each gateway delivery with its action outcome) under new ids until
 * there are n of each. */
async function replicate(n: number, seeded: number): Promise<void> {
  const events = await EventModel.collection.find({}).toArray();
  const deliveries = new Map((await DeliveryModel.collection.find({}).toArray()).map((d) => [d.eventId as string, d]));
  const results = new Map((await AttemptResultModel.collection.find({ number: 1 }).toArray()).map((r) => [r.deliveryId as string, r]));
  const gateway = await GatewayDeliveryModel.collection.find({}).toArray();
  const actions = new Map((await ActionOutcomeModel.collection.find({}).toArray()).map((a) => [a.delivery as string, a]));
  for (let done = seeded; done < n; ) {
    const chunk = Math.min(2_000, n - done);
    const rows: Record<string, Array<Record<string, unknown>>> = { events: [], deliveries: [], results: [], gateway: [], actions: [] };
    for (let i = 0; i < chunk; i++) {
      const e = events[(done + i) % events.length]!;
      const eventId = timeOrderedId();
      rows.events!.push({ ...e, _id: new mongoose.Types.ObjectId(), id: eventId });
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

interface SizeFigures {
  seedS: number;
  leftAfterSeeding: Record<string, number>;
  figures: Map<string, Figure>;
  plans: string[];
}

async function measureSize(n: number): Promise<SizeFigures> {
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
  const bench = await startBenchRuntime({ env: ENV, clock });
  const ctx = bench.runtime.ctx;
  // The bench runs each sweep itself: the worker's minutely runs would take the unfinished records first.
  for (const name of ['events.redispatch', 'webhooks.sweep', 'gateway.sweep', 'datasources.sweep']) await ctx.jobs.cancel({ name });
  try {
    const seedStarted = performance.now();
    const seedWallClock = new Date();
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
    // Finished work leaves no record: what the sweeps read after the burst is what is unfinished.
    const leftAfterSeeding = { 'events in the outbox': await UndispatchedEventModel.countDocuments({}), 'first-attempt records': await UnfinishedFirstAttemptsModel.countDocuments({}) };
    await replicate(n, seeded);
    const seedS = (performance.now() - seedStarted) / 1000;
    progress(`n=${n}: seeded and finished in ${seedS.toFixed(0)} s`);

    // An hour on: every record is past every grace period, as in an install that has run a while.
    offsetMs = 60 * 60_000;
    // A few unfinished records, as a process that died between two writes leaves them.
    const at = new Date(clock.now().getTime() - 5_000);
    const template = (await DeliveryModel.findOne({}).lean<Record<string, unknown>>())!;
    for (let i = 0; i < UNFINISHED; i++) {
      const event = new EventModel({ id: timeOrderedId(), type: 'conversation.started', teamId: t.teamId, botId: t.botId, payload: { conversation: { id: randomUUID() } }, createdAt: at });
      // Stored in the outbox and as an event, never dispatched.
      await UndispatchedEventModel.collection.insertOne({ _id: event.id, at, event: event.toObject() } as never);
      await EventModel.collection.insertOne(event.toObject() as never);
      const id = timeOrderedId();
      await GatewayDeliveryBodyModel.create({ _id: id, headers: {}, rawBody: Buffer.from('{}') });
      await GatewayDeliveryModel.create({ id, source: 'relay', deliveryId: randomUUID(), event: 'conversation.started', test: false, signed: { deliveryId: false, event: false, test: false }, receivedAt: at, sweptAt: at }); // never queued
      const outcome = timeOrderedId();
      await ActionOutcomeModel.create({ _id: outcome, delivery: randomUUID(), run: 0, rule: 'log-all', index: 0, type: 'log', spec: { type: 'log' }, status: 'pending', createdAt: at, sweptAt: at }); // never run
      // A fresh delivery whose first attempt never ran (the process died with it queued), with its batch's record.
      const deliveryId = timeOrderedId();
      await UnfinishedFirstAttemptsModel.collection.insertOne({ _id: timeOrderedId(), at, eventIds: [event.id] } as never);
      await DeliveryModel.collection.insertOne({ ...template, _id: deliveryId, id: deliveryId, eventId: event.id, createdAt: at, fresh: true, status: 'pending' } as never);
    }
    // Settled rows whose retry was never scheduled.
    const stranded = await DeliveryModel.find({}, { _id: 1 }).limit(UNFINISHED).lean<Array<{ _id: string }>>();
    await DeliveryModel.updateMany({ _id: trusted({ $in: stranded.map((d) => d._id) }) }, { $set: { fresh: false, status: 'pending', nextAttemptAt: at } });

    // Past every grace period of the unfinished ones (the gateway's is two minutes).
    offsetMs += 3 * 60_000;
    const cutoff = new Date(clock.now().getTime() - 120_000);
    // A backlog the worker has not reached: queued just now, so not due for the sweep.
    const backlog = Math.round(n * BACKLOG_SHARE);
    const queuedAt = clock.now();
    const g = (await GatewayDeliveryModel.collection.findOne({}))!;
    for (let done = 0; done < backlog; done += 2_000) {
      const docs = Array.from({ length: Math.min(2_000, backlog - done) }, () => {
        const id = timeOrderedId();
        return { ...g, _id: id, id, deliveryId: randomUUID(), receivedAt: queuedAt, sweptAt: queuedAt, processedAt: null, processedRun: -1 };
      });
      await GatewayDeliveryModel.collection.insertMany(docs as never[], { ordered: false });
    }
    // Before anything stored (seeding ran on the real clock): nothing is old.
    const retentionCutoff = new Date(seedWallClock.getTime() - 60_000);
    const plans = [
      `gateway deliveries: ${await plan(GatewayDeliveryModel.find({ processedAt: null, sweptAt: trusted({ $lt: cutoff }) }).limit(500))}`,
      `gateway actions: ${await plan(ActionOutcomeModel.find({ status: 'pending', sweptAt: trusted({ $lt: cutoff }) }).limit(500))}`,
      `webhook settled rows: ${await plan(DeliveryModel.find({ status: 'pending', fresh: false, nextAttemptAt: trusted({ $lt: cutoff }) }).limit(500))}`,
      `webhook first-attempt records: ${await plan(UnfinishedFirstAttemptsModel.find({ at: trusted({ $lt: cutoff }) }).sort({ at: 1 }).limit(100))}`,
      `webhook fresh rows of a record: ${await plan(DeliveryModel.find({ eventId: trusted({ $in: [randomUUID(), randomUUID()] }), fresh: true }))}`,
      `event outbox: ${await plan(UndispatchedEventModel.find({ at: trusted({ $lt: cutoff }) }).sort({ at: 1 }).limit(1000))}`,
      `retention, webhook deliveries: ${await plan(DeliveryModel.find({ createdAt: trusted({ $lt: retentionCutoff }) }).sort({ createdAt: 1 }).limit(500))}`,
      `retention, gateway deliveries: ${await plan(GatewayDeliveryModel.find({ processedAt: trusted({ $lt: retentionCutoff }) }).sort({ processedAt: 1 }).limit(500))}`,
      `retention, events: ${await plan(EventModel.find({ createdAt: trusted({ $lt: retentionCutoff }) }))}`,
      `retention, event failure counts: ${await plan(EventDispatchFailureModel.find({ lastAt: trusted({ $lt: retentionCutoff }) }))}`,
      `retention, re-sync slots: ${await plan(ResyncAttemptModel.find({ hour: trusted({ $lt: retentionCutoff }) }))}`,
    ];
    const sweeps: Sweep[] = [
      ['events', () => ctx.events.redispatchStale(30_000)],
      ['webhooks', () => webhookSweep(ctx, 60_000)],
      [`gateway (${backlog} queued, not due)`, () => gatewaySweep(ctx, 120_000)],
      ['syncs', () => performSyncSweep(ctx)],
      // Nothing is older than the cutoff: what a retention run reads when it has nothing to delete.
      ['retention: events, nothing old', () => pruneEvents(retentionCutoff)],
      ['retention: webhook deliveries, nothing old', () => pruneDeliveries(retentionCutoff)],
      ['retention: gateway deliveries, nothing old', () => pruneGateway(retentionCutoff)],
    ];
    // The gateway's read of what is due, alone and repeated: its database CPU per read is what the
    // backlog costs the sweep (10 ms ticks, so summed over many reads).
    const dueReads = 200;
    const dueCpu = bench.dbCpuMs();
    for (let i = 0; i < dueReads; i++) await GatewayDeliveryModel.find({ processedAt: null, sweptAt: trusted({ $lt: cutoff }) }, { id: 1, run: 1 }).limit(500).lean();
    plans.push(`gateway due read with ${backlog} queued: ${((bench.dbCpuMs() - dueCpu) / dueReads).toFixed(2)} ms of database CPU per read (${dueReads} reads)`);
    const figures = new Map<string, Figure>();
    for (const [name, run] of sweeps) {
      const first = await timed(bench, run);
      const idle: Array<{ ms: number; dbMs: number; ops: number }> = [];
      for (let i = 0; i < 5; i++) idle.push(await timed(bench, run));
      const med = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
      figures.set(name, { found: first.result, ms: first.ms, dbMs: first.dbMs, ops: first.ops, idleMs: med(idle.map((x) => x.ms)), idleDbMs: med(idle.map((x) => x.dbMs)), idleOps: med(idle.map((x) => x.ops)) });
    }
    // A retention run with old work to delete: N/100 events, webhook deliveries and processed
    // gateway deliveries a year old; its cost should follow those, not N.
    const yearAgo = new Date(seedWallClock.getTime() - 365 * 86_400_000);
    const oldCount = Math.max(1, Math.round(n / 100));
    const eventTemplate = (await EventModel.collection.findOne({}))!;
    const oldEvents = [];
    const oldDeliveries = [];
    const oldGateway = [];
    for (let i = 0; i < oldCount; i++) {
      const eventId = timeOrderedId(yearAgo.getTime());
      oldEvents.push({ ...eventTemplate, _id: new mongoose.Types.ObjectId(), id: eventId, createdAt: yearAgo });
      const deliveryId = timeOrderedId(yearAgo.getTime());
      oldDeliveries.push({ ...template, _id: deliveryId, id: deliveryId, eventId, createdAt: yearAgo, nextAttemptAt: null, finishedAt: null });
      const gatewayId = timeOrderedId(yearAgo.getTime());
      oldGateway.push({ ...g, _id: gatewayId, id: gatewayId, deliveryId: randomUUID(), receivedAt: yearAgo, sweptAt: yearAgo, processedAt: yearAgo, run: 0, processedRun: 0 });
    }
    await EventModel.collection.insertMany(oldEvents as never[]);
    await DeliveryModel.collection.insertMany(oldDeliveries as never[]);
    await GatewayDeliveryModel.collection.insertMany(oldGateway as never[]);
    const dayAgo = new Date(seedWallClock.getTime() - 86_400_000);
    const pruned = await timed(bench, async () => ({ ...(await pruneEvents(dayAgo)), ...(await pruneDeliveries(dayAgo)), ...(await pruneGateway(dayAgo)) }));
    const found = Object.fromEntries(Object.entries(pruned.result as Record<string, number>).filter(([, v]) => v > 0));
    figures.set(`retention: ${oldCount} old of each kind, all three prunes`, { found, ms: pruned.ms, dbMs: pruned.dbMs, ops: pruned.ops, idleMs: NaN, idleDbMs: NaN, idleOps: NaN });
    return { seedS, leftAfterSeeding, figures, plans };
  } finally {
    await bench.close();
  }
}

// Each N's figures are printed as soon as they are measured: a large N can take an hour to seed.
progress(machineLine());
console.log(`## bench/sweeps.ts (${process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded FerretDB'}), ${UNFINISHED} unfinished of each kind, the first ${TEMPLATE} records of each through the services, the rest copies`);
for (const n of SIZES) {
  const r = await measureSize(n);
  console.log(`\n### N = ${n}: seeded in ${r.seedS.toFixed(0)} s; ${machineLine()}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log('| Run | finds | ms | db CPU ms | db operations | idle ms | idle db CPU ms | idle db operations |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, f] of r.figures)
    console.log(`| ${name} | ${JSON.stringify(f.found).replaceAll('|', '/')} | ${f.ms.toFixed(0)} | ${f.dbMs.toFixed(0)} | ${f.ops} | ${f.idleMs.toFixed(0)} | ${f.idleDbMs.toFixed(0)} | ${f.idleOps} |`);
  console.log(`\nRecords of unfinished work left after the seeding burst finished: ${Object.entries(r.leftAfterSeeding).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const p of r.plans) console.log(`- ${p}`);
}
sink.close();
fs.rmSync(gatewayDir, { recursive: true, force: true });
process.exit(0);
