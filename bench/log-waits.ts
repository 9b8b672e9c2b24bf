// The webhook delivery log's first page of 100 in two shapes, interleaved call by call (A B B A) in
// one process so the machine's load drift lands on both (issue 17, session 33): TWO = (hook ‖ page
// ‖ count) then the results by id, as before the results carried their hook; ONE = (hook ‖ page ‖
// count ‖ results by the hook's range), listDeliveries. Wall per call (p50, p90, p99, mean), and
// Node CPU and FerretDB CPU (thread schedstat, ns) per call. Checks that both show the same page.
// Data: a dir seeded by `bench/lists.ts seed DIR`, whose result rows carry their hook (a worker
// start, or fillResultHookIds, fills in older ones).
//
//   node --import tsx bench/log-waits.ts DIR [--calls 400]
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { flag } from './lib/args.ts';
const root = path.join(import.meta.dirname, '..');
const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/log-waits.ts DIR [--calls 400]');
const N = Number(flag('calls') ?? 400);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { connectDatabase, ensureIndexes, disconnectDatabase } = await import(`${root}/src/db/connection.ts`);
const { DeliveryModel } = await import(`${root}/src/webhooks/model.ts`);
const { listDeliveries } = await import(`${root}/src/webhooks/deliveries.ts`);
const { readAttempts, currentDelivery } = await import(`${root}/src/webhooks/attempts.ts`);
const { getWebhook } = await import(`${root}/src/webhooks/service.ts`);
const { pageById } = await import(`${root}/src/http/pagination.ts`);
const { byParent } = await import(`${root}/src/db/byParent.ts`);
const { processThreadsCpuMs } = await import(`${root}/bench/lib/cpu.ts`);
const { hookId, botId } = JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8'));
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_lists' });
await connectDatabase(db.uri);
await ensureIndexes();
const LIMIT = 10_000;
const two = async () => {
  const [hook, found] = await Promise.allSettled([getWebhook(botId, hookId), pageById(DeliveryModel, { webhookId: hookId }, { limit: 100 }, { totalLimit: LIMIT })]);
  if (hook.status === 'rejected' || found.status === 'rejected') throw new Error('read failed');
  const byDelivery = byParent(await readAttempts(found.value.items), (a: { deliveryId: string }) => a.deliveryId);
  return found.value.items.map((d: any) => ({ ...currentDelivery(d, byDelivery.get(d.id)?.at(-1)), attempts: byDelivery.get(d.id) ?? [], settled: d.status }));
};
const one = async () => (await listDeliveries(botId, hookId, { limit: 100 }, LIMIT)).items;
// Both shapes must show the same thing.
const [a, b] = [await two(), await one()];
if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('the two shapes differ');
const stats = { two: { wall: [] as number[], node: 0, ferret: 0 }, one: { wall: [] as number[], node: 0, ferret: 0 } };
for (let i = 0; i < 40; i++) await (i % 2 ? one() : two());
for (let i = 0; i < 2 * N; i++) {
  const which = (i % 4 === 0 || i % 4 === 3) ? 'two' : 'one'; // A B B A
  const fn = which === 'two' ? two : one;
  const [t, c, f] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(db.process.pid)];
  await fn();
  const used = process.cpuUsage(c);
  stats[which].wall.push(performance.now() - t);
  stats[which].node += (used.user + used.system) / 1000;
  stats[which].ferret += processThreadsCpuMs(db.process.pid) - f;
}
const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const [k, s] of Object.entries(stats)) {
  console.log(`${k}: ${s.wall.length} calls, wall p50 ${q(s.wall, 0.5).toFixed(2)} p90 ${q(s.wall, 0.9).toFixed(2)} p99 ${q(s.wall, 0.99).toFixed(2)} mean ${(s.wall.reduce((x, y) => x + y, 0) / s.wall.length).toFixed(2)} ms; Node CPU ${(s.node / s.wall.length).toFixed(2)}, FerretDB CPU ${(s.ferret / s.wall.length).toFixed(2)} ms per call`);
}
console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
await disconnectDatabase();
await db.stop();
process.exit(0);
