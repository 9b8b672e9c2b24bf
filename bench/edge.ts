// Authenticated GET throughput on the public edge (Koa, channel auth, router) against a bare
// node:http server doing the same key check with the raw driver, in the same run.
import http from 'node:http';
import { MongoClient } from 'mongodb';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { runLoad, formatLoad } from './lib/load.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { secretMatchesHash } from '../src/security/secrets.ts';
import type { DomainModule } from '../src/module.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

// The smallest authenticated route: what remains is the edge itself.
const pingModule: DomainModule = {
  name: 'bench-ping',
  publicRoutes(router) {
    router.get('/ping', (c) => {
      c.body = { success: true, bot: c.state.botId };
    });
  },
};

const bench = await startBenchRuntime({ worker: false, extraModules: [pingModule] });
const tenant = await provisionTenant({ team: 'bench', bot: 'bench' });

// Baseline: node:http + raw driver, the same lookup (the channel) and the same hash compare.
const client = await MongoClient.connect(bench.uri);
const db = client.db();
const baseline = http.createServer(async (req, res) => {
  const match = /^\/api\/public\/channels\/([^/]+)\/(1\.0|2\.0)\/ping$/.exec(req.url ?? '');
  const channel = match ? await db.collection('apichannels').findOne({ id: match[1] }) : null;
  if (!channel || !channel.enabled) return res.writeHead(404).end('{"success":false}');
  if (!secretMatchesHash(req.headers['x-api-secret-key'] as string | undefined, channel.secretHash)) return res.writeHead(403).end('{"success":false}');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, bot: channel.botId }));
});
await new Promise<void>((r) => baseline.listen(0, '127.0.0.1', r));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}`;

const path = `/api/public/channels/${tenant.channelId}/2.0/ping`;
const headers = { 'x-api-secret-key': tenant.secretKey };
// Warm both up, then measure baseline and ours alternately.
await runLoad({ url: baselineUrl + path, headers, concurrency: CONCURRENCY, requests: 2000 });
await runLoad({ url: bench.baseUrl + path, headers, concurrency: CONCURRENCY, requests: 2000 });
const base = await runLoad({ url: baselineUrl + path, headers, concurrency: CONCURRENCY, requests: REQUESTS });
const ours = await runLoad({ url: bench.baseUrl + path, headers, concurrency: CONCURRENCY, requests: REQUESTS });

console.log(`edge benchmark — ${machineLine()}`);
console.log(formatLoad('baseline node:http + raw driver', base));
console.log(formatLoad('relay public edge (koa)', ours));
console.log(`ratio relay/baseline: ${(ours.rps / base.rps).toFixed(2)}x req/s, p99 ${(ours.p99 / base.p99).toFixed(2)}x`);

baseline.close();
await client.close();
await bench.close();
