// The webhook delivery log's first page of 100, its rows as stored before session 34 (the request an
// object, an empty `unresolved` list and null end fields on every row; results with a null error and
// retry time and a false truncation flag) and as stored since (the request one JSON text, those
// fields left out), interleaved call by call in one process so the machine's load drift lands on every side (issue 17, session 34). Each call is the route's work
// without Koa: listDeliveries, the presenters and JSON.stringify. Node CPU (process.cpuUsage) and
// FerretDB CPU (its threads' schedstat) per call, and wall time.
//   BEFORE: the old rows, the hook read by { _id, botId }, merged as before session 34 (spreads) and
//   presented as before (Dates).
//   OLD ROWS: the old rows through today's code (what an install's older rows cost now).
//   AFTER: the same rows stored the new way, through today's code.
// Data: a dir seeded by `bench/lists.ts seed DIR` with a tree before session 34; the first run copies
// the hook's deliveries and results under a second hook in the new shape (target-stored.json).
//
//   node --import tsx bench/log-stored.ts DIR [--calls 300]
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numberFlag } from './lib/args.ts';
import { processThreadsCpuMs } from './lib/cpu.ts';
import { startFerretDb } from '../src/db/ferretdb.ts';
import { connectDatabase, disconnectDatabase, ensureIndexes } from '../src/db/connection.ts';
import { attemptKey, AttemptResultModel, DeliveryModel, WebhookModel, type Delivery } from '../src/webhooks/model.ts';
import { listDeliveries } from '../src/webhooks/deliveries.ts';
import { currentDelivery, readAttempts, resultsOfHook, settlement } from '../src/webhooks/attempts.ts';
import { presentDelivery } from '../src/webhooks/presenters.ts';
import { storedRequest } from '../src/webhooks/request.ts';
import { pageById } from '../src/http/pagination.ts';
import { byParent } from '../src/db/byParent.ts';
import { timeOrderedId } from '../src/clock.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/log-stored.ts DIR [--calls 300]');
const N = numberFlag('calls', 300);
const LIMIT = 10_000;
const { hookId, botId } = JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8')) as { hookId: string; botId: string };
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_lists' });
await connectDatabase(db.uri);
await ensureIndexes();

type Row = Record<string, any>;
/** The hook's rows copied under a second hook, stored the new way (once per dir). */
async function storedCopy(): Promise<string> {
  const file = path.join(dir!, 'target-stored.json');
  if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { hookId: string }).hookId;
  const copyId = timeOrderedId();
  const hook = (await WebhookModel.collection.findOne({ _id: hookId } as never))!;
  await WebhookModel.collection.insertOne({ ...hook, _id: copyId, id: copyId } as never);
  let after = '';
  for (;;) {
    const rows = (await DeliveryModel.collection.find({ webhookId: hookId, _id: { $gt: after } } as never, { sort: { _id: 1 }, limit: 500 }).toArray()) as Row[];
    if (!rows.length) break;
    after = rows.at(-1)!._id;
    const ids = new Map(rows.map((r) => [r._id as string, timeOrderedId()]));
    const copies = rows.map(({ unresolved, finishedAt, cancelReason, ...r }) => ({
      ...r,
      _id: ids.get(r._id),
      id: ids.get(r._id),
      webhookId: copyId,
      request: typeof r.request === 'string' ? r.request : storedRequest(r.request),
      ...(unresolved?.length ? { unresolved } : {}),
      ...(finishedAt ? { finishedAt } : {}),
      ...(cancelReason ? { cancelReason } : {}),
    }));
    const results = (await AttemptResultModel.collection.find({ deliveryId: { $in: [...ids.keys()] } } as never).toArray()) as Row[];
    await DeliveryModel.collection.insertMany(copies as never[]);
    if (results.length) {
      await AttemptResultModel.collection.insertMany(
        results.map(({ error, retryAt, responseTruncated, ...r }) => ({
          ...r,
          _id: attemptKey(ids.get(r.deliveryId)!, r.number),
          deliveryId: ids.get(r.deliveryId),
          webhookId: copyId,
          ...(error ? { error } : {}),
          ...(retryAt ? { retryAt } : {}),
          ...(responseTruncated ? { responseTruncated } : {}),
        })) as never[],
      );
    }
  }
  fs.writeFileSync(file, JSON.stringify({ hookId: copyId }));
  return copyId;
}
const copyId = await storedCopy();

// Before session 34: the merge with spreads, the request presented from its object, times as Dates.
const presentAttemptBefore = (a: any) => ({
  number: a.number,
  status: a.status,
  startedAt: a.startedAt,
  finishedAt: a.finishedAt ?? null,
  httpStatus: a.httpStatus ?? null,
  durationMs: a.durationMs ?? null,
  error: a.error ?? null,
  responseBody: a.responseBody ?? null,
  responseTruncated: a.responseTruncated ?? false,
});
const currentBefore = (d: Delivery, latest: any) => {
  if (d.status !== 'pending' || !latest || latest.number <= (d.runAfter ?? 0)) return d;
  if (latest.status === 'pending' || latest.status === 'interrupted') return d;
  return { ...d, ...settlement(d, latest) };
};
const presentBefore = (d: any) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  request: { method: d.request?.method, url: d.request?.url, headers: d.request?.headers ?? {}, body: d.request?.body ?? '' },
  unresolved: d.unresolved ?? [],
  attemptCount: d.attemptCount,
  nextAttemptAt: d.nextAttemptAt ?? null,
  cancelReason: d.cancelReason ?? null,
  attempts: d.attempts.map(presentAttemptBefore),
  createdAt: d.createdAt,
  finishedAt: d.finishedAt ?? null,
});
async function before(): Promise<string> {
  const [hook, found, near] = await Promise.allSettled([
    // The hook read as before session 34 (getWebhook now reads by _id alone).
    WebhookModel.findOne({ _id: hookId, botId }).lean(),
    pageById<Delivery & { _id: string }>(DeliveryModel, { webhookId: hookId }, { limit: 100 }, { totalLimit: LIMIT }),
    resultsOfHook(hookId, null, 100),
  ]);
  if (hook.status === 'rejected' || !hook.value || found.status === 'rejected' || near.status === 'rejected') throw new Error('read failed');
  const byDelivery = byParent(await readAttempts(found.value.items, near.value), (a) => a.deliveryId);
  const items = found.value.items.map((d) => {
    const own = byDelivery.get(d.id) ?? [];
    return { ...currentBefore(d, own.at(-1)), attempts: own, settled: d.status };
  });
  return JSON.stringify({ success: true, deliveries: items.map(presentBefore), pagination: found.value.pagination });
}
const today = (hook: string) => async () => {
  const page = await listDeliveries(botId, hook, { limit: 100 }, LIMIT);
  return JSON.stringify({ success: true, deliveries: page.items.map(presentDelivery), pagination: page.pagination });
};
const sides = { BEFORE: before, 'OLD ROWS': today(hookId), AFTER: today(copyId) };

// Every side shows the same page, but for the copies' ids.
const shown = async (fn: () => Promise<string>) => JSON.parse(await fn()).deliveries.map(({ id, webhookId, ...d }: Row) => d);
const [a, b, c] = [await shown(sides.BEFORE), await shown(sides['OLD ROWS']), await shown(sides.AFTER)];
if (JSON.stringify(a) !== JSON.stringify(b) || JSON.stringify(a) !== JSON.stringify(c)) throw new Error('the sides show different pages');

const stats = Object.fromEntries(Object.keys(sides).map((k) => [k, { wall: [] as number[], node: 0, ferret: 0 }]));
const names = Object.keys(sides) as Array<keyof typeof sides>;
for (let i = 0; i < 30; i++) for (const k of names) await sides[k]();
for (let i = 0; i < N; i++) {
  // Each round in another order: A B C, C B A, B C A, ...
  const order = i % 2 ? [...names].reverse() : names;
  const rotated = [...order.slice(i % 3), ...order.slice(0, i % 3)];
  for (const k of rotated) {
    const [t, cpu, f] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(db.process.pid)];
    await sides[k]();
    const used = process.cpuUsage(cpu);
    stats[k]!.wall.push(performance.now() - t);
    stats[k]!.node += (used.user + used.system) / 1000;
    stats[k]!.ferret += processThreadsCpuMs(db.process.pid) - f;
  }
}
const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`| side | calls | Node CPU ms | FerretDB CPU ms | wall p50 | p90 | p99 |\n| --- | --- | --- | --- | --- | --- | --- |`);
for (const [k, s] of Object.entries(stats)) {
  console.log(`| ${k} | ${s.wall.length} | ${(s.node / s.wall.length).toFixed(2)} | ${(s.ferret / s.wall.length).toFixed(2)} | ${q(s.wall, 0.5).toFixed(2)} | ${q(s.wall, 0.9).toFixed(2)} | ${q(s.wall, 0.99).toFixed(2)} |`);
}
console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
await disconnectDatabase();
await db.stop();
process.exit(0);
