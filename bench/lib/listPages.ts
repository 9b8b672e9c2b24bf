// The admin delivery lists' pages as a tree serves them (the service, the presenters and
// JSON.stringify: the route's work without Koa), and two such sides timed call by call, A B B A,
// so the machine's load drift lands on both: bench/list-driver.ts and bench/probe-cache.ts.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { processThreadsCpuMs } from './cpu.ts';

export type ListPage = 'gateway' | 'log';
export interface ListTarget {
  botId: string;
  hookId: string;
}
type Side = () => Promise<string>;
type Stats = { wall: number[]; node: number; ferret: number };

const LIMIT = 10_000;

/**
 * One tree's page through its own mongoose connected to `uri` (a tree other than this one loads
 * its own mongoose, driver, bson and prom-client: two registries, two connections); `cursor` reads
 * the page after the first 10,000.
 */
export async function listPageOf(tree: string, uri: string, which: ListPage, target: ListTarget, cursor: boolean): Promise<Side> {
  const { connectDatabase } = await import(`${tree}/src/db/connection.ts`);
  await connectDatabase(uri);
  if (which === 'gateway') {
    const { GatewayDeliveryModel } = await import(`${tree}/src/gateway/model.ts`);
    const { listDeliveries } = await import(`${tree}/src/gateway/service.ts`);
    const { presentDelivery } = await import(`${tree}/src/gateway/presenters.ts`);
    const after = cursor ? ((await GatewayDeliveryModel.find({}, { _id: 1 }).sort({ _id: 1 }).skip(9_999).limit(1).lean())[0] as { _id: string })._id : null;
    return async () => {
      const p = await listDeliveries({}, { limit: 100, cursor: after }, LIMIT);
      return JSON.stringify({ success: true, deliveries: p.items.map((r: any) => presentDelivery(r)), pagination: p.pagination });
    };
  }
  const { DeliveryModel } = await import(`${tree}/src/webhooks/model.ts`);
  const { listDeliveries } = await import(`${tree}/src/webhooks/deliveries.ts`);
  const { presentDelivery } = await import(`${tree}/src/webhooks/presenters.ts`);
  const after = cursor ? ((await DeliveryModel.find({ webhookId: target.hookId }, { _id: 1 }).sort({ _id: 1 }).skip(9_999).limit(1).lean())[0] as { _id: string })._id : null;
  return async () => {
    const p = await listDeliveries(target.botId, target.hookId, { limit: 100, cursor: after }, LIMIT);
    return JSON.stringify({ success: true, deliveries: p.items.map(presentDelivery), pagination: p.pagination });
  };
}

/**
 * Checks both sides show the same page, warms them, then times `calls` calls of each, A B B A:
 * wall time, this process's CPU and the side's own FerretDB's CPU (thread schedstat of `ferretPid`).
 * Prints one line a side and the machine's load.
 */
export async function interleave(sides: Record<string, { call: Side; ferretPid: number }>, calls: number): Promise<void> {
  const [a, b] = Object.keys(sides) as [string, string];
  if ((await sides[a]!.call()) !== (await sides[b]!.call())) throw new Error(`${a} and ${b} show different pages`);
  const stats: Record<string, Stats> = { [a]: { wall: [], node: 0, ferret: 0 }, [b]: { wall: [], node: 0, ferret: 0 } };
  for (let i = 0; i < 40; i++) await sides[i % 2 ? b : a]!.call();
  for (let i = 0; i < 2 * calls; i++) {
    const name = i % 4 === 0 || i % 4 === 3 ? a : b; // A B B A
    const { call, ferretPid } = sides[name]!;
    const s = stats[name]!;
    const [t, c, f] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(ferretPid)];
    await call();
    const used = process.cpuUsage(c);
    s.wall.push(performance.now() - t);
    s.node += (used.user + used.system) / 1000;
    s.ferret += processThreadsCpuMs(ferretPid) - f;
  }
  const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  for (const [k, s] of Object.entries(stats)) {
    console.log(
      `${k}: ${s.wall.length} calls, wall p50 ${q(s.wall, 0.5).toFixed(2)} p90 ${q(s.wall, 0.9).toFixed(2)} p99 ${q(s.wall, 0.99).toFixed(2)} ms; ` +
        `Node CPU ${(s.node / s.wall.length).toFixed(2)}, FerretDB CPU ${(s.ferret / s.wall.length).toFixed(2)} ms per call`,
    );
  }
  console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
}
