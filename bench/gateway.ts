// Gateway intake (verify + de-duplicate + store + enqueue) against a bare node:http server that
// verifies the same HMAC and inserts the same document with the raw driver, in the same run.
// Peak: closed loop at BENCH_CONCURRENCY. Then open loop at half of our peak rate for p99.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import getRawBody from 'raw-body';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { percentile } from './lib/load.ts';
import { signBody, verifySignature } from '../src/security/signature.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const OPEN_LOOP_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 8);
const SECRET = 'bench-secret-0123456789';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-gateway-'));
fs.mkdirSync(path.join(dir, 'rules'));
fs.writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [SECRET] } } }));
const bench = await startBenchRuntime({ worker: false, env: { GATEWAY_CONFIG: path.join(dir, 'gateway.json'), RULES_DIR: path.join(dir, 'rules') } });

// Baseline: the same checks and the same document, no framework, no queue.
const client = await MongoClient.connect(bench.uri);
const collection = client.db().collection('benchBaselineDeliveries');
await collection.createIndex({ source: 1, deliveryId: 1 }, { unique: true });
const baseline = http.createServer(async (req, res) => {
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
await new Promise<void>((r) => baseline.listen(0, '127.0.0.1', r));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as { port: number }).port}/gateway/relay`;
const oursUrl = `${bench.baseUrl}/gateway/relay`;

function delivery() {
  const deliveryId = randomUUID();
  const body = JSON.stringify({ event: 'conversation.started', deliveryId, timestamp: new Date().toISOString(), conversation: { id: randomUUID(), botName: 'Bench bot', channelType: 'web' } });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-service-signature': signBody(body, SECRET),
      'x-service-delivery-id': deliveryId,
      'x-service-event': 'conversation.started',
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function post(url: string): Promise<{ ms: number; ok: boolean }> {
  const { body, headers } = delivery();
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ok: res.statusCode === 202 }));
    });
    req.on('error', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ok: false }));
    req.end(body);
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}
const figures = (latencies: number[], errors: number, seconds: number): Figures => {
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), requests: latencies.length, errors };
};

async function closedLoop(url: string, requests: number): Promise<Figures> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const deadline = Date.now() + 60_000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (issued++ < requests && Date.now() < deadline) {
        const r = await post(url);
        latencies.push(r.ms);
        if (!r.ok) errors++;
      }
    }),
  );
  return figures(latencies, errors, (Date.now() - started) / 1000);
}

/** Fixed arrival rate regardless of answers (what a sender does), for `seconds`. */
async function openLoop(url: string, rate: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.floor(rate * seconds);
  const started = Date.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(post(url).then((r) => void (latencies.push(r.ms), r.ok || errors++)));
  }
  await Promise.all(pending);
  return figures(latencies, errors, (Date.now() - started) / 1000);
}

const line = (name: string, f: Figures) =>
  `${name.padEnd(40)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  (${f.requests} requests, ${f.errors} errors)`;

await closedLoop(baselineUrl, 1000);
await closedLoop(oursUrl, 1000);
// Alternate rounds so a noisy neighbour on the shared cores hits both sides alike; report medians.
const ROUNDS = 3;
const baseRounds: Figures[] = [];
const oursRounds: Figures[] = [];
for (let round = 0; round < ROUNDS; round++) {
  baseRounds.push(await closedLoop(baselineUrl, Math.ceil(REQUESTS / ROUNDS)));
  oursRounds.push(await closedLoop(oursUrl, Math.ceil(REQUESTS / ROUNDS)));
}
const median = (rounds: Figures[]) => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;
const basePeak = median(baseRounds);
const oursPeak = median(oursRounds);
const ratios = oursRounds.map((o, i) => o.rps / baseRounds[i]!.rps);
const halfRate = oursPeak.rps / 2;
// Let the database finish what the peak phase left (SQLite checkpoints) before timing latency.
const settle = () => new Promise((r) => setTimeout(r, 3000));
await settle();
const baseHalf = await openLoop(baselineUrl, halfRate, OPEN_LOOP_SECONDS);
await settle();
const oursHalf = await openLoop(oursUrl, halfRate, OPEN_LOOP_SECONDS);

console.log(`gateway intake benchmark — ${machineLine()}`);
console.log(`peak: closed loop, ${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${Math.ceil(REQUESTS / ROUNDS)} requests (median round shown)`);
console.log(line('baseline node:http + raw driver', basePeak));
console.log(line('relay gateway intake', oursPeak));
console.log(`ratio relay/baseline per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!.toFixed(2)}x req/s (goal >= 0.70)`);
console.log(`half of relay's peak: open loop at ${halfRate.toFixed(0)} req/s for ${OPEN_LOOP_SECONDS} s`);
console.log(line('baseline node:http + raw driver', baseHalf));
console.log(line('relay gateway intake', oursHalf));
console.log(`relay p99 at half load: ${oursHalf.p99.toFixed(2)} ms (goal < 20 ms)`);

agent.destroy();
baseline.close();
await client.close();
await bench.close();
fs.rmSync(dir, { recursive: true, force: true });
