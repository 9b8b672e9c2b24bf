// FerretDB's CPU for the admin delivery lists' pages with the pushdown's probe answers kept
// (relay_probe_cache.go) and asked of SQLite every time (RELAY_FERRETDB_PROBE_CACHE=off): two
// FerretDBs of this build on two copies of one seeded dir, each serving one side, call by call in
// one process (A B B A) so the machine's load drift lands on both (issue 17, session 36). Each side
// is the service, the presenters and JSON.stringify, checked to show the same page. FerretDB CPU
// per call (thread schedstat) of the side's own FerretDB, Node CPU and wall p50/p99.
// Each side loads its own mongoose, driver, bson and prom-client (one default connection each), so
// the second side runs another tree: --other ROOT, a copy of this tree's src/ whose node_modules
// holds copies of those four and links to every other entry (as bench/list-driver.ts's --before).
// Data: a dir seeded by `bench/lists.ts seed DIR`; its db/ is copied to DIR-on and DIR-off.
//
// --same: the cache on for both sides (an A/A control of the two trees and processes).
//
//   node --import tsx bench/probe-cache.ts DIR gateway|log --other ROOT [--calls 400] [--cursor] [--same]
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { flag, stringFlag } from './lib/args.ts';
const root = path.join(import.meta.dirname, '..');
const [dir, which] = process.argv.slice(2);
if (!dir || !['gateway', 'log'].includes(which!)) throw new Error('usage: bench/probe-cache.ts DIR gateway|log --other ROOT [--calls 400] [--cursor]');
const other = path.resolve(stringFlag('other', ''));
const N = Number(flag('calls') ?? 400);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { processThreadsCpuMs } = await import(`${root}/bench/lib/cpu.ts`);
const target = JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8')) as { botId: string; hookId: string };
const LIMIT = 10_000;

function copyOf(suffix: string): string {
  const to = `${dir}-${suffix}`;
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(path.join(dir, 'db'), path.join(to, 'db'), { recursive: true });
  return to;
}
const dbs = {
  on: await startFerretDb({ dataDir: path.join(copyOf('on'), 'db'), database: 'relay_lists' }),
  off: await startFerretDb({ dataDir: path.join(copyOf('off'), 'db'), database: 'relay_lists', probeCache: process.argv.includes('--same') }),
};

/** One tree's page, through its own mongoose connected to `uri`: the route's work without Koa. */
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
const sides = { off: await sideOf(other, dbs.off.uri), on: await sideOf(root, dbs.on.uri) };
if ((await sides.off()) !== (await sides.on())) throw new Error('the two sides show different pages');
type Stats = { wall: number[]; node: number; ferret: number };
const stats: Record<keyof typeof sides, Stats> = { off: { wall: [], node: 0, ferret: 0 }, on: { wall: [], node: 0, ferret: 0 } };
for (let i = 0; i < 40; i++) await (i % 2 ? sides.on() : sides.off());
for (let i = 0; i < 2 * N; i++) {
  const side = i % 4 === 0 || i % 4 === 3 ? 'off' : 'on'; // A B B A
  const s = stats[side];
  const pid = dbs[side].process.pid;
  const [t, c, f] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(pid)];
  await sides[side]();
  const used = process.cpuUsage(c);
  s.wall.push(performance.now() - t);
  s.node += (used.user + used.system) / 1000;
  s.ferret += processThreadsCpuMs(pid) - f;
}
const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`${which}, ${process.argv.includes('--cursor') ? 'a page after 10,000' : 'first page'} of 100, A B B A (off: probe cache ${process.argv.includes('--same') ? 'ON (--same)' : 'off'}, tree ${other}; on: this tree)`);
for (const [k, s] of Object.entries(stats)) {
  console.log(`${k}: ${s.wall.length} calls, wall p50 ${q(s.wall, 0.5).toFixed(2)} p99 ${q(s.wall, 0.99).toFixed(2)} ms; Node CPU ${(s.node / s.wall.length).toFixed(2)}, FerretDB CPU ${(s.ferret / s.wall.length).toFixed(2)} ms per call`);
}
console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
await Promise.all([dbs.on.stop(), dbs.off.stop()]);
process.exit(0);
