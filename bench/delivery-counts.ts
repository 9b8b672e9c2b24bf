// Issue 17: what keeping the count of a hook's deliveries (webhookdeliveries:webhookId_1__id_1 in
// the patch's maintained counts, relay_counts.go) costs the delivery writes and saves the delivery
// log's capped total, in FerretDB CPU (/proc, 10 ms ticks) so the machine's load cannot move it.
// Raw driver, documents shaped and indexed as src/webhooks/model.ts writes them.
//
//   node --import tsx bench/delivery-counts.ts [--events 2000] [--hooks 10] [--big 300000] [--counts 50]
//
// 1. Writes, on two fresh FerretDBs (counted or not): the fan-out's insert of one row per hook of an
//    event, an attempt's update of its row (status, attemptCount, nextAttemptAt, fresh) and the
//    settle (status, finishedAt).
// 2. Upgrade: --big deliveries of one hook written without the count, then FerretDB restarted
//    with it: the start's recount (one transaction) in FerretDB CPU and wall time, against a
//    second start that finds the triggers; then the log's capped count (limit 10,001) both ways.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MongoClient, type Collection } from 'mongodb';
import { startFerretDb, type EmbeddedDb } from '../src/db/ferretdb.ts';
import { processTreeCpuMs } from './lib/cpu.ts';
import { machineLine } from './lib/runtime.ts';
import { numberFlag } from './lib/args.ts';

const EVENTS = numberFlag('events', 2000);
const HOOKS = numberFlag('hooks', 10);
const BIG = numberFlag('big', 300000);
const COUNTS = numberFlag('counts', 50);
const CAP = 10_000;
const COUNTED = ['webhookdeliveries:webhookId_1__id_1'];

type Delivery = { _id: string; [field: string]: unknown };
const body = JSON.stringify({ type: 'conversation.started', conversation: { id: randomUUID(), botId: randomUUID(), state: 'Open', subject: 'x'.repeat(200) } });
const delivery = (webhookId: string, eventId: string) => {
  const id = randomUUID();
  return {
    _id: id, id, eventId, webhookId, botId: 'bot-1', event: 'conversation.started',
    request: { method: 'POST', url: 'https://example.test/hook', headers: { 'content-type': 'application/json' }, body },
    unresolved: [], status: 'pending', attemptCount: 1, attemptLimit: 8, runAfter: 0, nextAttemptAt: null,
    firstClaim: { startedAt: new Date(), leaseUntil: new Date() }, fresh: true, createdAt: new Date(), finishedAt: null, cancelReason: null,
  };
};

async function open(dir: string, counted: string[]): Promise<{ db: EmbeddedDb; client: MongoClient; col: Collection<Delivery>; cpu: () => number }> {
  const db = await startFerretDb({ dataDir: dir, database: 'dc', counted });
  const client = await MongoClient.connect(db.uri);
  const col = client.db('dc').collection<Delivery>('webhookdeliveries');
  await col.createIndex({ eventId: 1, webhookId: 1 }, { unique: true });
  await col.createIndex({ webhookId: 1, _id: 1 });
  await col.createIndex({ status: 1, fresh: 1, nextAttemptAt: 1 });
  await col.createIndex({ createdAt: 1, _id: 1 });
  return { db, client, col, cpu: () => processTreeCpuMs(db.process.pid) };
}

async function writes(counted: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-dcounts-'));
  const { db, client, col, cpu } = await open(dir, counted);
  try {
    const hooks = Array.from({ length: HOOKS }, () => randomUUID());
    const ids: string[] = [];
    let at = cpu();
    for (let e = 0; e < EVENTS; e++) {
      const eventId = randomUUID();
      const rows = hooks.map((h) => delivery(h, eventId));
      for (const r of rows) ids.push(r._id);
      await col.insertMany(rows);
    }
    const perEvent = (cpu() - at) / EVENTS;
    const n = Math.min(ids.length, 3000);
    at = cpu();
    for (let i = 0; i < n; i++) await col.updateOne({ _id: ids[i]! }, { $set: { status: 'pending', attemptCount: 2, nextAttemptAt: new Date(), fresh: false } });
    const perAttempt = (cpu() - at) / n;
    at = cpu();
    for (let i = 0; i < n; i++) await col.updateOne({ _id: ids[i]! }, { $set: { status: 'delivered', finishedAt: new Date() } });
    const perSettle = (cpu() - at) / n;
    return { perEvent, perAttempt, perSettle };
  } finally {
    await client.close();
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function cappedCounts(col: Collection<Delivery>, hook: string, cpu: () => number) {
  let total = 0;
  const at = cpu();
  for (let i = 0; i < COUNTS; i++) total = await col.countDocuments({ webhookId: hook }, { limit: CAP + 1 });
  return { ms: (cpu() - at) / COUNTS, total };
}

console.log(`bench/delivery-counts.ts: ${EVENTS} events x ${HOOKS} hooks, ${BIG} deliveries for the upgrade, ${COUNTS} counts; ${machineLine()}; load average ${os.loadavg()[0]!.toFixed(1)}`);
console.log('| Hook count kept | FerretDB CPU ms per event fanned out (one insert of ' + HOOKS + ' rows) | per attempt update | per settle update |');
console.log('| --- | --- | --- | --- |');
for (const [label, counted] of [['no', []], ['yes', COUNTED], ['no (again)', []], ['yes (again)', COUNTED]] as const) {
  const r = await writes([...counted]);
  console.log(`| ${label} | ${r.perEvent.toFixed(3)} | ${r.perAttempt.toFixed(3)} | ${r.perSettle.toFixed(3)} |`);
}

// Upgrade: a data directory of BIG deliveries (95 % one hook's) written without the count.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-dcounts-big-'));
try {
  const hook = randomUUID();
  let s = await open(dir, []);
  for (let b = 0; b < BIG / 1000; b++) {
    await s.col.insertMany(Array.from({ length: 1000 }, (_, i) => delivery(i % 20 ? hook : randomUUID(), randomUUID())));
  }
  const off = await cappedCounts(s.col, hook, s.cpu);
  await s.client.close();
  await s.db.stop();
  const starts: string[] = [];
  for (const label of ['first start with the count (recount)', 'second start (triggers found)']) {
    const t0 = performance.now();
    const db = await startFerretDb({ dataDir: dir, database: 'dc', counted: COUNTED });
    const client = await MongoClient.connect(db.uri);
    // The first command that opens the collection; the recount runs before FerretDB answers.
    const n = await client.db('dc').collection<Delivery>('webhookdeliveries').countDocuments({ webhookId: hook });
    const wall = performance.now() - t0;
    starts.push(`| ${label} | ${processTreeCpuMs(db.process.pid)} | ${wall.toFixed(0)} | ${n} |`);
    await client.close();
    await db.stop();
  }
  s = await open(dir, COUNTED);
  const on = await cappedCounts(s.col, hook, s.cpu);
  await s.client.close();
  await s.db.stop();
  console.log(`\n| ${BIG} deliveries | FerretDB CPU ms from spawn to the first count answered | wall ms (under load) | count |`);
  console.log('| --- | --- | --- | --- |');
  for (const line of starts) console.log(line);
  console.log(`\n| Hook count kept | FerretDB CPU ms per capped count of the log (limit ${CAP + 1}) | total |`);
  console.log('| --- | --- | --- |');
  console.log(`| no | ${off.ms.toFixed(2)} | ${off.total} |`);
  console.log(`| yes | ${on.ms.toFixed(2)} | ${on.total} |`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`load average after: ${os.loadavg()[0]!.toFixed(1)}`);
