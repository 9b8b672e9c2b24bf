// Scale (issue 17): does a request's cost stay bounded by what it returns when the database holds a
// real install? Seeds the default database (or MONGODB_URI) once through the services' write
// paths, then measures three runs of every list and get endpoint for the big tenant and a small
// one while gateway intake runs at 200/s in the background; the small tenant's figures are compared
// with the same requests on a second instance that holds only that tenant, in the same run.
//
//   node --import tsx bench/scale.ts [--scale 0.1] [--runs 3] [--requests 100] [--intake 200]
//                                                        (--scale 1 = the issue's full size; default 0.1)
//   MONGODB_URI=mongodb://host/relay_scale node --import tsx bench/scale.ts   (a MongoDB you run)
//
// Full size: one bot with 100,000 rows of ~2 KB and 19 with 500, 300,000 events with their webhook
// deliveries, 300,000 processed gateway deliveries, 50,000 conversations of 10 messages; every
// count is multiplied by --scale. Retention is off (RETENTION_DAYS=0).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import { startBenchRuntime, machineLine, type BenchRuntime } from './lib/runtime.ts';
import { percentile } from './lib/load.ts';
import { seededText } from './lib/text.ts';
import { syncAndWait } from './lib/sync.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createRelayClient, type RelayClient } from '../src/client/index.ts';
import { signBody } from '../src/security/signature.ts';
import { startConversation, recordMessages } from '../src/chat/service.ts';
import { createWebhook } from '../src/webhooks/service.ts';
import { mapLimit } from '../src/datasources/rows.ts';
import { performSweep as webhookSweep } from '../src/webhooks/sweep.job.ts';
import { performSweep as gatewaySweep } from '../src/gateway/sweep.job.ts';
import { performSyncSweep } from '../src/datasources/sweep.job.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const SCALE = Number(arg('scale') ?? process.env.BENCH_SCALE ?? 0.1);
const RUNS = Number(arg('runs') ?? 3);
const REQUESTS = Number(arg('requests') ?? 100);
/** Background gateway intake per second during the runs (the issue's 200; 0 to see the database alone). */
const INTAKE = Number(arg('intake') ?? 200);
const n = (full: number) => Math.max(1, Math.round(full * SCALE));
const progress = (line: string) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const ADMIN_TOKEN = 'bench-scale-admin-token-0123456789';
const GATEWAY_SECRET = 'bench-scale-gateway-secret';
const gatewayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-scale-'));
fs.mkdirSync(path.join(gatewayDir, 'rules'));
fs.writeFileSync(path.join(gatewayDir, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [GATEWAY_SECRET] } } }));
const ENV = {
  ADMIN_TOKEN,
  RETENTION_DAYS: '0',
  GATEWAY_CONFIG: path.join(gatewayDir, 'gateway.json'),
  RULES_DIR: path.join(gatewayDir, 'rules'),
};

// A webhook receiver: answers 200 at once.
const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200).end('ok'));
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/hook`;

const { random, words } = seededText(17);
function markdown(i: number, bytes = 2048): string {
  let text = `# Item ${i}\n\n`;
  while (text.length < bytes) text += `${words(8 + Math.floor(random() * 10))}. `;
  return text;
}

const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 64, headersTimeout: 0, bodyTimeout: 0 });
const patientFetch = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
  fetch(input, { ...init, dispatcher })) as unknown as typeof globalThis.fetch;

interface Tenant {
  teamId: string;
  botId: string;
  api: RelayClient;
  dataSourceId: string;
  rowIds: string[];
  conversationIds: string[];
  webhookId?: string;
}

async function seedTenant(bench: BenchRuntime, rows: number, conversations: number, withWebhook: boolean): Promise<Tenant> {
  const t = await provisionTenant({ plan: 'enterprise' });
  const api = createRelayClient({ baseUrl: bench.baseUrl, channelId: t.channelId, secretKey: t.secretKey, fetch: patientFetch, timeoutMs: 30 * 60_000 });
  const tenant: Tenant = { teamId: t.teamId, botId: t.botId, api, dataSourceId: (await api.dataSources.create()).id, rowIds: [], conversationIds: [] };
  if (withWebhook) {
    const { webhook } = await createWebhook(bench.runtime.ctx, t.botId, { type: 'conversation.started', url: sinkUrl });
    tenant.webhookId = webhook.id;
  }
  const batches = Array.from({ length: Math.ceil(rows / 100) }, (_, b) =>
    Array.from({ length: Math.min(100, rows - b * 100) }, (_, i) => ({ name: `item-${b * 100 + i}.md`, content: markdown(b * 100 + i) })),
  );
  await mapLimit(batches, 4, (batch) => api.rows.add(tenant.dataSourceId, batch));
  const scope = { bot: { id: t.botId, name: 'Bench bot', teamId: t.teamId, welcomeMessage: null }, channelId: t.channelId };
  const ids = await mapLimit(Array.from({ length: conversations }), 16, async () => {
    const conversation = await startConversation(bench.runtime.ctx, scope as never, {});
    await recordMessages(
      bench.runtime.ctx,
      conversation,
      Array.from({ length: 10 }, (_, m) => ({ role: m % 2 ? ('assistant' as const) : ('user' as const), message: words(12) })),
    );
    return conversation.id;
  });
  tenant.conversationIds = ids;
  return tenant;
}

async function rowIdsOf(tenant: Tenant): Promise<string[]> {
  const ids: string[] = [];
  for await (const row of tenant.api.rows.iterate(tenant.dataSourceId, { pageSize: 100 })) ids.push(row.id);
  return ids;
}

function gatewayDelivery() {
  const deliveryId = randomUUID();
  const body = JSON.stringify({ event: 'conversation.started', deliveryId, timestamp: new Date().toISOString(), conversation: { id: randomUUID() } });
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, GATEWAY_SECRET) },
  };
}
async function postGateway(baseUrl: string): Promise<void> {
  const { body, headers } = gatewayDelivery();
  const res = await fetch(`${baseUrl}/gateway/relay`, { method: 'POST', body, headers, dispatcher });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`gateway intake answered ${res.status}`);
}

/** Gateway intake at `rate` per second until stop() (open loop: one request per tick). */
function backgroundIntake(baseUrl: string, rate: number) {
  let sent = 0;
  let failed = 0;
  const timer = setInterval(() => {
    for (let i = 0; i < rate / 50; i++) {
      sent++;
      postGateway(baseUrl).catch(() => failed++);
    }
  }, 20);
  if (rate === 0) clearInterval(timer);
  return { stop: () => (clearInterval(timer), { sent, failed }) };
}

async function admin(bench: BenchRuntime, pathname: string): Promise<unknown> {
  const res = await fetch(`${bench.baseUrl}/api/admin${pathname}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, dispatcher });
  const body = (await res.json()) as { success: boolean };
  if (!body.success) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

type Probe = [name: string, request: () => Promise<unknown>];
function probes(bench: BenchRuntime, t: Tenant): Probe[] {
  const middle = t.rowIds[Math.floor(t.rowIds.length / 2)]!;
  const nearEnd = t.rowIds[Math.max(0, t.rowIds.length - 51)]!;
  const conv = t.conversationIds[Math.floor(t.conversationIds.length / 2)]!;
  const list: Probe[] = [
    ['rows: first page', () => t.api.rows.list(t.dataSourceId, { limit: 100 })],
    ['rows: middle page', () => t.api.rows.list(t.dataSourceId, { limit: 100, cursor: middle })],
    ['rows: last page', () => t.api.rows.list(t.dataSourceId, { limit: 100, cursor: nearEnd })],
    ['rows: get', () => t.api.rows.get(t.dataSourceId, middle)],
    ['data sources: get', () => t.api.dataSources.get(t.dataSourceId)],
    ['data sources: list', () => t.api.dataSources.list({ limit: 10 })],
    ['conversations: page', () => t.api.chat.listConversations({ limit: 100 })],
    ['messages: page', () => t.api.chat.listMessages(conv, { limit: 100 })],
    ['inbox (admin, Open)', () => admin(bench, `/bots/${t.botId}/conversations?state=Open&limit=100`)],
  ];
  if (t.webhookId) list.push(['webhook delivery log (admin)', () => admin(bench, `/bots/${t.botId}/webhooks/${t.webhookId}/deliveries?limit=100`)]);
  return list;
}

async function measure(list: Probe[]): Promise<Map<string, { p50: number; p99: number }>> {
  const out = new Map<string, { p50: number; p99: number }>();
  for (const [name, request] of list) {
    const ms: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      await request();
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    out.set(name, { p50: percentile(ms, 50), p99: percentile(ms, 99) });
  }
  return out;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

type Figures = Map<string, { p50: number; p99: number }>;

// The isolation baseline runs in a child process (one mongoose connection per process): an instance
// holding only a tenant of the small one's shape, measured on request between the parent's runs.
if (process.argv.includes('--alone')) {
  const alone = await startBenchRuntime({ env: ENV });
  const tenant = await seedTenant(alone, n(500), 5, false);
  tenant.rowIds = await rowIdsOf(tenant);
  process.send!({ ready: alone.baseUrl });
  process.on('message', async (msg: { measure?: boolean; close?: boolean }) => {
    if (msg.measure) process.send!({ figures: [...(await measure(probes(alone, tenant)))] });
    if (msg.close) {
      await alone.close();
      fs.rmSync(gatewayDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  await new Promise(() => undefined);
}

// ---- Seeding -----------------------------------------------------------------------------------
progress(`scale ${SCALE}: ${machineLine()}`);
const big = await startBenchRuntime({ env: { ...ENV, JOB_PROCESS_EVERY_MS: '200' } });
const seeding: Record<string, number> = {};
let started = performance.now();
const bigTenant = await seedTenant(big, n(100_000), n(50_000), true);
seeding['big tenant (rows, conversations)'] = performance.now() - started;
progress(`big tenant seeded in ${(seeding['big tenant (rows, conversations)']! / 1000).toFixed(0)} s`);
started = performance.now();
const smallTenants = [];
for (let i = 0; i < 19; i++) smallTenants.push(await seedTenant(big, n(500), 5, false));
seeding['19 small tenants'] = performance.now() - started;
progress('small tenants seeded');
// Events beyond the big tenant's conversation starts, each fanned out to its webhook.
started = performance.now();
await mapLimit(Array.from({ length: Math.max(0, n(300_000) - n(50_000)) }), 32, () =>
  big.runtime.ctx.events.emit({ type: 'conversation.started', teamId: bigTenant.teamId, botId: bigTenant.botId, payload: { conversation: { id: randomUUID() } } }),
);
seeding['events'] = performance.now() - started;
progress('events seeded');
started = performance.now();
await mapLimit(Array.from({ length: n(300_000) }), 32, () => postGateway(big.baseUrl));
seeding['gateway deliveries'] = performance.now() - started;
progress('gateway deliveries seeded');
const sync = await syncAndWait(bigTenant.api, bigTenant.dataSourceId, 200);
seeding['first full sync of the big source'] = sync.totalMs;
bigTenant.rowIds = await rowIdsOf(bigTenant);
const small = smallTenants[0]!;
small.rowIds = await rowIdsOf(small);
progress('synced; waiting for the queues to drain');
// Let first attempts and gateway processing finish before measuring.
await new Promise((r) => setTimeout(r, 10_000));

const alone = fork(fileURLToPath(import.meta.url), ['--alone', '--scale', String(SCALE), '--requests', String(REQUESTS)], { execArgv: ['--import', 'tsx'] });
const fromAlone = <T>(key: string) => new Promise<T>((resolve) => {
  const on = (msg: Record<string, unknown>) => {
    if (key in msg) {
      alone.off('message', on);
      resolve(msg[key] as T);
    }
  };
  alone.on('message', on);
});
const aloneUrl = await fromAlone<string>('ready');

// ---- Runs ----------------------------------------------------------------------------------------
const lines: string[] = [];
const print = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
print(`## bench/scale.ts --scale ${SCALE} (${process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded FerretDB'})`);
print(`Machine: ${machineLine()}`);
print(
  `Seeded: big tenant ${n(100_000)} rows + ${n(50_000)} conversations × 10 messages, 19 × ${n(500)} rows, ` +
    `${n(300_000)} events with deliveries, ${n(300_000)} gateway deliveries; seeding s: ` +
    Object.entries(seeding)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
      .join(', '),
);
for (let run = 1; run <= RUNS; run++) {
  const intake = backgroundIntake(big.baseUrl, INTAKE);
  const bigFigures = await measure([
    ...probes(big, bigTenant),
    ['gateway delivery list (admin)', () => admin(big, '/gateway/deliveries?limit=100')],
  ]);
  const smallFigures = await measure(probes(big, small));
  const { sent, failed } = intake.stop();
  // The same background intake on the lone instance, so both sides carry the same load.
  const aloneIntake = backgroundIntake(aloneUrl, INTAKE);
  alone.send({ measure: true });
  const aloneFigures: Figures = new Map(await fromAlone<[string, { p50: number; p99: number }][]>('figures'));
  aloneIntake.stop();
  print(`\n### Run ${run} (background gateway intake: ${sent} sent, ${failed} failed; machine load average ${os.loadavg()[0]!.toFixed(1)}); ms, ${REQUESTS} requests each`);
  print('| Request | big p50 | big p99 | small p50 | small p99 | small alone p99 | small / alone |');
  print('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, b] of bigFigures) {
    const s = smallFigures.get(name);
    const a = aloneFigures.get(name);
    const f = (x?: number) => (x === undefined ? '-' : x.toFixed(1));
    print(`| ${name} | ${f(b.p50)} | ${f(b.p99)} | ${f(s?.p50)} | ${f(s?.p99)} | ${f(a?.p99)} | ${s && a ? (s.p99 / a.p99).toFixed(2) : '-'} |`);
  }
  const ctx = big.runtime.ctx;
  const sweeps = {
    events: await timed(() => ctx.events.redispatchStale(30_000)),
    webhooks: await timed(() => webhookSweep(ctx, 60_000)),
    gateway: await timed(() => gatewaySweep(ctx, 120_000)),
    syncs: await timed(() => performSyncSweep(ctx)),
  };
  print(`Sweeps (ms): ${Object.entries(sweeps).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  const syncStart = (await syncAndWait(bigTenant.api, bigTenant.dataSourceId, 100)).startMs;
  // Re-sync after editing 1 % of the big source's rows.
  const edited = bigTenant.rowIds.filter((_, i) => i % 100 === run).map((id, i) => ({ id, name: `edited-${run}-${i}.md`, content: markdown(run * 1_000_000 + i) }));
  for (let i = 0; i < edited.length; i += 100) await bigTenant.api.rows.update(bigTenant.dataSourceId, edited.slice(i, i + 100));
  const resync = (await syncAndWait(bigTenant.api, bigTenant.dataSourceId, 50)).totalMs;
  print(`Sync start ${syncStart.toFixed(1)} ms; re-sync of ${edited.length} edited rows (1 %) ${(resync / 1000).toFixed(2)} s; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (the bench and the big instance, one process)`);
}

alone.send({ close: true });
await big.close();
sink.close();
fs.rmSync(gatewayDir, { recursive: true, force: true });
if (process.env.BENCH_OUT) fs.appendFileSync(process.env.BENCH_OUT, `${lines.join('\n')}\n`);
process.exit(0);
