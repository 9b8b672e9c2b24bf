// The gateway delivery list's first page of 100 in two shapes, interleaved call by call (A B B A)
// in one process so the machine's load drift lands on both (issue 17, session 34): TWO = (page ‖
// count) then the rule and action outcomes by the page's 100 ids, as before; ONE = (page ‖ count
// ‖ the outcomes by their delivery key's range after the cursor), listDeliveries. Wall per call
// (p50, p90, p99, mean), Node CPU and FerretDB CPU (thread schedstat, ns) per call, and the same
// for the page presented and serialised (what the route adds). Checks both show the same page.
// Data: a dir seeded by `bench/lists.ts seed DIR`.
//
//   node --import tsx bench/gateway-waits.ts DIR [--calls 400] [--cursor]
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Model } from 'mongoose';
import { flag } from './lib/args.ts';
const root = path.join(import.meta.dirname, '..');
const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/gateway-waits.ts DIR [--calls 400] [--cursor]');
const N = Number(flag('calls') ?? 400);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { connectDatabase, ensureIndexes, disconnectDatabase } = await import(`${root}/src/db/connection.ts`);
const { GatewayDeliveryModel } = await import(`${root}/src/gateway/model.ts`);
const { listDeliveries } = await import(`${root}/src/gateway/service.ts`);
const { withOutcomes } = await import(`${root}/src/gateway/outcomes.ts`);
const { presentDelivery } = await import(`${root}/src/gateway/presenters.ts`);
const { paginate } = await import(`${root}/src/http/pagination.ts`);
const { processThreadsCpuMs } = await import(`${root}/bench/lib/cpu.ts`);
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_lists' });
await connectDatabase(db.uri);
await ensureIndexes();
const LIMIT = 10_000;
// --cursor: a page in the middle of the list (after the 10,000th delivery) instead of the first.
const cursor = process.argv.includes('--cursor')
  ? ((await GatewayDeliveryModel.find({}, { _id: 1 }).sort({ _id: 1 }).skip(9_999).limit(1).lean())[0] as { _id: string })._id
  : null;
const page = { limit: 100, cursor };
const two = async () => {
  const result = await paginate(GatewayDeliveryModel as unknown as Model<any>, {}, page, { projection: { rawBody: 0, headers: 0 }, totalLimit: LIMIT });
  return { items: await withOutcomes(result.items), pagination: result.pagination };
};
const one = () => listDeliveries({}, page, LIMIT);
const shown = (p: Awaited<ReturnType<typeof one>>) => JSON.stringify({ success: true, deliveries: p.items.map((r: any) => presentDelivery(r)), pagination: p.pagination });
if (shown(await two()) !== shown(await one())) throw new Error('the two shapes differ');
type Stats = { wall: number[]; node: number; ferret: number };
const fresh = (): Stats => ({ wall: [], node: 0, ferret: 0 });
const stats = { two: fresh(), one: fresh(), 'two, shown': fresh(), 'one, shown': fresh() };
async function measure(s: Stats, fn: () => Promise<unknown>) {
  const [t, c, f] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(db.process.pid)];
  await fn();
  const used = process.cpuUsage(c);
  s.wall.push(performance.now() - t);
  s.node += (used.user + used.system) / 1000;
  s.ferret += processThreadsCpuMs(db.process.pid) - f;
}
for (let i = 0; i < 40; i++) await (i % 2 ? one() : two());
for (let i = 0; i < 2 * N; i++) {
  const isTwo = i % 4 === 0 || i % 4 === 3; // A B B A
  const fn = isTwo ? two : one;
  await measure(isTwo ? stats.two : stats.one, fn);
  await measure(isTwo ? stats['two, shown'] : stats['one, shown'], async () => shown(await fn()));
}
const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`gateway list, ${cursor ? 'a page after 10,000' : 'first page'} of 100, A B B A`);
for (const [k, s] of Object.entries(stats)) {
  console.log(`${k}: ${s.wall.length} calls, wall p50 ${q(s.wall, 0.5).toFixed(2)} p90 ${q(s.wall, 0.9).toFixed(2)} p99 ${q(s.wall, 0.99).toFixed(2)} mean ${(s.wall.reduce((x, y) => x + y, 0) / s.wall.length).toFixed(2)} ms; Node CPU ${(s.node / s.wall.length).toFixed(2)}, FerretDB CPU ${(s.ferret / s.wall.length).toFixed(2)} ms per call`);
}
console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
await disconnectDatabase();
await db.stop();
process.exit(0);
