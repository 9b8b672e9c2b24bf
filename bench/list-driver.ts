// The two admin delivery lists' first pages (or pages after 10,000) as this tree serves them and as
// another tree does (--before ROOT), call by call in one process (A B B A), so the machine's load
// drift lands on both (issue 17, session 35: their reads through the driver, db/find.ts). Each side
// is the service, the presenters and JSON.stringify, checked to show the same page. Node CPU
// (process.cpuUsage) and FerretDB CPU (thread schedstat) per call, wall p50/p90/p99.
// The other tree must load its own mongoose, driver, bson and prom-client (two model registries,
// two connections, two metric registries): copies of those four in ROOT/node_modules, every other
// entry a symlink to this tree's. Data: a dir seeded by `bench/lists.ts seed DIR`.
// --before-data DIR2: the other tree reads its own copy of the data (a second FerretDB), for a
// change of the stored shape; the pages must still be the same JSON. Each side's FerretDB CPU is
// its own FerretDB's.
//
//   node --import tsx bench/list-driver.ts DIR gateway|log --before ROOT [--before-data DIR2] [--calls 400] [--cursor]
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { flag, stringFlag } from './lib/args.ts';
const root = path.join(import.meta.dirname, '..');
const [dir, which] = process.argv.slice(2);
if (!dir || !['gateway', 'log'].includes(which!)) throw new Error('usage: bench/list-driver.ts DIR gateway|log --before ROOT [--calls 400] [--cursor]');
const before = path.resolve(stringFlag('before', ''));
const N = Number(flag('calls') ?? 400);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { processThreadsCpuMs } = await import(`${root}/bench/lib/cpu.ts`);
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_lists' });
const beforeData = stringFlag('before-data', '');
const beforeDb = beforeData ? await startFerretDb({ dataDir: path.join(path.resolve(beforeData), 'db'), database: 'relay_lists' }) : db;
const target = JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8')) as { botId: string; hookId: string };
const LIMIT = 10_000;

/** One tree's page: the route's work without Koa. */
async function sideOf(tree: string, uri: string) {
  const { connectDatabase } = await import(`${tree}/src/db/connection.ts`);
  await connectDatabase(uri);
  if (which === 'gateway') {
    const { GatewayDeliveryModel } = await import(`${tree}/src/gateway/model.ts`);
    const { listDeliveries } = await import(`${tree}/src/gateway/service.ts`);
    const { presentDelivery } = await import(`${tree}/src/gateway/presenters.ts`);
    const cursor = process.argv.includes('--cursor') ? ((await GatewayDeliveryModel.find({}, { _id: 1 }).sort({ _id: 1 }).skip(9_999).limit(1).lean())[0] as { _id: string })._id : null;
    return async () => {
      const p = await listDeliveries({}, { limit: 100, cursor }, LIMIT);
      return JSON.stringify({ success: true, deliveries: p.items.map((r: any) => presentDelivery(r)), pagination: p.pagination });
    };
  }
  const { DeliveryModel } = await import(`${tree}/src/webhooks/model.ts`);
  const { listDeliveries } = await import(`${tree}/src/webhooks/deliveries.ts`);
  const { presentDelivery } = await import(`${tree}/src/webhooks/presenters.ts`);
  const cursor = process.argv.includes('--cursor') ? ((await DeliveryModel.find({ webhookId: target.hookId }, { _id: 1 }).sort({ _id: 1 }).skip(9_999).limit(1).lean())[0] as { _id: string })._id : null;
  return async () => {
    const p = await listDeliveries(target.botId, target.hookId, { limit: 100, cursor }, LIMIT);
    return JSON.stringify({ success: true, deliveries: p.items.map(presentDelivery), pagination: p.pagination });
  };
}
const sides = { before: await sideOf(before, beforeDb.uri), after: await sideOf(root, db.uri) };
const ferretOf = { before: beforeDb.process.pid, after: db.process.pid };
if ((await sides.before()) !== (await sides.after())) throw new Error('the two trees show different pages');
type Stats = { wall: number[]; node: number; ferret: number };
const stats: Record<keyof typeof sides, Stats> = { before: { wall: [], node: 0, ferret: 0 }, after: { wall: [], node: 0, ferret: 0 } };
for (let i = 0; i < 40; i++) await (i % 2 ? sides.after() : sides.before());
for (let i = 0; i < 2 * N; i++) {
  const side = i % 4 === 0 || i % 4 === 3 ? 'before' : 'after'; // A B B A
  const s = stats[side];
  const [t, c, f] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(ferretOf[side])];
  await sides[side]();
  const used = process.cpuUsage(c);
  s.wall.push(performance.now() - t);
  s.node += (used.user + used.system) / 1000;
  s.ferret += processThreadsCpuMs(ferretOf[side]) - f;
}
const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`${which}, ${process.argv.includes('--cursor') ? 'a page after 10,000' : 'first page'} of 100, A B B A, before ${before}${beforeData ? ` on ${beforeData}` : ''}`);
for (const [k, s] of Object.entries(stats)) {
  console.log(`${k}: ${s.wall.length} calls, wall p50 ${q(s.wall, 0.5).toFixed(2)} p90 ${q(s.wall, 0.9).toFixed(2)} p99 ${q(s.wall, 0.99).toFixed(2)} ms; Node CPU ${(s.node / s.wall.length).toFixed(2)}, FerretDB CPU ${(s.ferret / s.wall.length).toFixed(2)} ms per call`);
}
console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
await db.stop();
if (beforeDb !== db) await beforeDb.stop();
process.exit(0);
