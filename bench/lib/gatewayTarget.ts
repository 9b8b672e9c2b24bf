// One side of the gateway benchmark in a process of its own, so neither the load generator's nor
// the other side's garbage collection lands in its latency: `relay` (the real runtime, intake only),
// `relay-worker` (the real runtime with its worker, which processes what it takes in) or `baseline` (bare node:http that verifies the same HMAC and inserts the same document with the
// raw driver). Forked by bench/gateway.ts with MONGODB_URI and GATEWAY_BENCH_SECRET set; answers
// { url } over IPC, reports its GC pauses, CPU and loop delay on { report }, and exits on { close }.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import getRawBody from 'raw-body';
import { startBenchRuntime } from './runtime.ts';
import { writeBenchRule } from './gatewayRule.ts';
import { verifySignature } from '../../src/security/signature.ts';

// The parent passes the delivery secret; both sides accept only it.
const SECRET = process.env.GATEWAY_BENCH_SECRET!;

export interface TargetReady {
  url: string;
}
export interface GcReport {
  pauses: number;
  totalMs: number;
  maxMs: number;
  /** CPU time of this process (user + system) since the last report. */
  cpuMs: number;
  /** Event-loop delay since the last report: how long a ready callback waited for the loop. */
  loopP99Ms: number;
  loopMaxMs: number;
}

/**
 * BENCH_RULE=log gives the worker the scale bench's rule (bench/lib/gatewayRule.ts: one `log` action
 * per delivery, so a rule outcome, an action outcome, its claim and its job); without it no rule
 * applies.
 */
function writeRules(dir: string): void {
  if (process.env.BENCH_RULE === 'log') writeBenchRule(dir);
}

async function startRelay(worker: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-gateway-'));
  fs.mkdirSync(path.join(dir, 'rules'));
  if (worker) writeRules(path.join(dir, 'rules'));
  fs.writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [SECRET] } } }));
  const bench = await startBenchRuntime({ worker, env: { GATEWAY_CONFIG: path.join(dir, 'gateway.json'), RULES_DIR: path.join(dir, 'rules') } });
  return {
    url: `${bench.baseUrl}/gateway/relay`,
    async close() {
      await bench.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startBaseline(uri: string): Promise<{ url: string; close(): Promise<void> }> {
  const client = await MongoClient.connect(uri);
  const collection = client.db().collection('benchBaselineDeliveries');
  await collection.createIndex({ source: 1, deliveryId: 1 }, { unique: true });
  const server = http.createServer(async (req, res) => {
    const raw = await getRawBody(req, { limit: 1024 * 1024 });
    if (!verifySignature(raw, req.headers['x-service-signature'], [SECRET])) return res.writeHead(401).end('{"success":false}');
    const payload = JSON.parse(raw.toString('utf8'));
    try {
      await collection.insertOne({
        id: randomUUID(),
        source: 'relay',
        deliveryId: payload.deliveryId,
        event: String(req.headers['x-service-event']),
        test: false,
        headers: req.headers,
        rawBody: raw,
        receivedAt: new Date(),
        run: 0,
        processedRun: -1,
        processedAt: null,
      });
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
      return res.writeHead(200).end('{"success":true,"duplicate":true}');
    }
    res.writeHead(202, { 'content-type': 'application/json' }).end('{"success":true}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/gateway/relay`,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await client.close();
    },
  };
}

const gc = { pauses: 0, totalMs: 0, maxMs: 0 };
let cpuFrom = process.cpuUsage();
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.pauses++;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

const side = process.argv[2];
const target = side === 'baseline' ? await startBaseline(process.env.MONGODB_URI!) : await startRelay(side === 'relay-worker');
process.send!({ url: target.url } satisfies TargetReady);
process.on('message', async (msg: { report?: boolean; close?: boolean }) => {
  if (msg.report) {
    const cpu = process.cpuUsage(cpuFrom);
    const report: GcReport = { ...gc, cpuMs: (cpu.user + cpu.system) / 1000, loopP99Ms: loop.percentile(99) / 1e6, loopMaxMs: loop.max / 1e6 };
    process.send!({ gc: report });
    Object.assign(gc, { pauses: 0, totalMs: 0, maxMs: 0 });
    cpuFrom = process.cpuUsage();
    loop.reset();
  }
  if (msg.close) {
    await target.close();
    process.exit(0);
  }
});
