// Where the API process's CPU goes for a delivery list page of 100 (issue 17): the whole request
// over HTTP (in-process server, a raw client that only counts bytes), then its stages in a loop:
// the service (its reads one by one), the presenters and JSON.stringify. CPU from
// process.cpuUsage (this process: API and client) and /proc (FerretDB); calls counted through
// mongoose's debug hook. Data: a dir seeded by `bench/lists.ts seed DIR`.
// --tail: instead of the stages, the page's requests one by one, each with its own Node CPU,
// FerretDB CPU (all threads, ns resolution), Node GC pauses and wall time, to see what the slowest
// ones (the p99) paid for that the median did not; the first request (cold) is shown apart.
// DIR may also be a `bench/scale.ts --data-dir` install (its manifest.json): the big tenant's hook.
//
// --gogc N / --gomemlimit SIZE: FerretDB's Go GC target and memory limit instead of the launcher's.
//
// inbox (a `bench/scale.ts` install only): the agents' inbox, the big bot's Open conversations.
//
//   node --import tsx bench/list-stages.ts DIR log|gateway|inbox [--requests 100] [--code ROOT] [--tail [--heap MB]] [--gogc N] [--gomemlimit 256MiB]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { processThreadsCpuMs, processTreeCpuMs, stageTimer } from './lib/cpu.ts';
import { flag, stringFlag } from './lib/args.ts';

const [dir, which = 'log'] = process.argv.slice(2);
if (!dir || !['log', 'gateway', 'inbox'].includes(which)) throw new Error('usage: bench/list-stages.ts DIR log|gateway|inbox [--requests N] [--code ROOT]');
const root = path.resolve(stringFlag('code', path.join(import.meta.dirname, '..')));
const N = Number(stringFlag('requests', '100'));
const TOKEN = 'bench-lists-admin-token-0123456789';
const { loadConfig } = await import(`${root}/src/config.ts`);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { createLogger } = await import(`${root}/src/observability/logger.ts`);
const { createRuntime } = await import(`${root}/src/runtime.ts`);
const { createApp } = await import(`${root}/src/http/app.ts`);
const { trusted } = await import(`${root}/src/db/connection.ts`);
const scaleManifest = path.join(dir, 'manifest.json');
const scaled = fs.existsSync(scaleManifest);
const target = scaled
  ? (({ big }) => ({ botId: big.botId, hookId: big.webhookId }))(JSON.parse(fs.readFileSync(scaleManifest, 'utf8')) as { big: { botId: string; webhookId: string } })
  : (JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8')) as { botId: string; hookId: string });
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: scaled ? 'relay_bench' : 'relay_lists', goGc: flag('gogc'), goMemLimit: flag('gomemlimit') });
const config = loadConfig({ MONGODB_URI: db.uri, ADMIN_TOKEN: TOKEN, RETENTION_DAYS: '0', GATEWAY_CONFIG: path.join(dir, 'gateway.json'), RULES_DIR: path.join(dir, 'rules'), DATA_DIR: path.join(dir, 'data') });
const runtime = await createRuntime({ config, logger: createLogger('silent'), uri: db.uri, role: { api: true, worker: false } });
const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;
let calls = 0;
mongoose.set('debug', () => void calls++);
const get = (p: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: `/api/admin${p}`, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length)).on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });

/** CPU per call of `fn`: this process's, FerretDB's, and mongoose calls. */
const stage = stageTimer(N, () => processTreeCpuMs(db.process.pid), () => calls, 2);

const pagePathOf = (list: string) =>
  list === 'log'
    ? `/bots/${target.botId}/webhooks/${target.hookId}/deliveries?limit=100`
    : list === 'inbox'
      ? `/bots/${target.botId}/conversations?state=Open&limit=100`
      : '/gateway/deliveries?limit=100';

const WARM = 20;
/** --tail: N requests of the page one by one, per request, after WARM (the first, cold, shown apart). */
async function tail(pagePath: string): Promise<void> {
  const pauses: Array<{ start: number; end: number; kind: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration, kind: (e as unknown as { detail: { kind: number } }).detail.kind });
  });
  observer.observe({ entryTypes: ['gc'] });
  // The admin path (auth, router, error middleware) warmed first, as a running API's is: what stays
  // cold is the list's own code and reads.
  for (let i = 0; i < WARM; i++) await get('/gateway/sources');
  const samples: Array<{ wall: number; node: number; ferret: number; gc: number; minorGc: number; majorGc: number; start: number; end: number }> = [];
  for (let i = 0; i < WARM + N; i++) {
    const [start, node, ferret] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(db.process.pid)];
    await get(pagePath);
    const used = process.cpuUsage(node);
    const ferretMs = processThreadsCpuMs(db.process.pid) - ferret;
    const end = performance.now();
    samples.push({ wall: end - start, node: (used.user + used.system) / 1000, ferret: ferretMs, gc: 0, minorGc: 0, majorGc: 0, start, end });
  }
  await new Promise((r) => setTimeout(r, 100)); // gc entries arrive after the fact
  observer.disconnect();
  for (const s of samples) {
    for (const p of pauses.filter((p) => p.start < s.end && p.end > s.start)) {
      s.gc += Math.min(p.end, s.end) - Math.max(p.start, s.start);
      // PerformanceGC kinds: 1 minor (scavenge), 2 major (mark-compact), 4 incremental marking, 8 weak callbacks
      if (p.kind === 1) s.minorGc++;
      if (p.kind === 2) s.majorGc++;
    }
  }
  const row = (label: string, s: (typeof samples)[number]) =>
    `| ${label} | ${s.wall.toFixed(1)} | ${s.node.toFixed(2)} | ${s.ferret.toFixed(2)} | ${s.gc.toFixed(2)} (${s.minorGc} minor, ${s.majorGc} major) | ${(s.wall - s.node - s.ferret).toFixed(1)} |\n`;
  const warm = samples.slice(WARM);
  const warming = samples.slice(5, WARM).sort((a, b) => b.wall - a.wall)[0]!;
  const at = (q: number, key: 'wall' | 'node' | 'ferret' | 'gc') => {
    const sorted = warm.map((s) => s[key]).sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))]!;
  };
  process.stdout.write(`${which}, page of 100: ${N} requests one by one after ${WARM}, code ${root}; load average ${os.loadavg()[0]!.toFixed(1)}\n`);
  process.stdout.write('| request | wall ms | Node CPU ms | FerretDB CPU ms | Node GC ms | wall - CPU ms |\n| --- | --- | --- | --- | --- | --- |\n');
  // A fresh process: the route's code runs interpreted until V8 has compiled it, so the first pages cost more.
  for (let i = 0; i < 5; i++) process.stdout.write(row(`#${i}${i ? '' : ' (cold)'}`, samples[i]!));
  process.stdout.write(row(`the slowest of #5-#${WARM - 1} (#${samples.indexOf(warming)})`, warming));
  for (const q of [50, 90, 99, 100]) {
    process.stdout.write(`| p${q} of each column apart | ${at(q, 'wall').toFixed(1)} | ${at(q, 'node').toFixed(2)} | ${at(q, 'ferret').toFixed(2)} | ${at(q, 'gc').toFixed(2)} | |\n`);
  }
  const mean = (key: 'wall' | 'node' | 'ferret' | 'gc') => (warm.reduce((sum, s) => sum + s[key], 0) / warm.length).toFixed(2);
  process.stdout.write(`| mean | ${mean('wall')} | ${mean('node')} | ${mean('ferret')} | ${mean('gc')} | |\n`);
  const slowest = [...warm].sort((a, b) => b.wall - a.wall).slice(0, 3);
  slowest.forEach((s, i) => process.stdout.write(row(`slowest ${i + 1} (#${samples.indexOf(s)})`, s)));
  const ferretPid = Number(fs.readFileSync(`/proc/${db.process.pid}/task/${db.process.pid}/children`, 'utf8').trim().split(' ')[0]);
  const peakRss = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${ferretPid}/status`, 'utf8'))?.[1];
  process.stdout.write(`FerretDB peak RSS ${Math.round(Number(peakRss) / 1024)} MiB\n`);
  const byCpu = [...warm].sort((a, b) => b.node + b.ferret - (a.node + a.ferret)).slice(0, 3);
  byCpu.forEach((s, i) => process.stdout.write(row(`most CPU ${i + 1} (#${samples.indexOf(s)})`, s)));
}

if (process.argv.includes('--tail')) {
  // --heap MB: that much held in small objects, as the API process holds at full size (RSS 440-600 MiB),
  // so a major GC has a heap of that size to mark.
  const held: unknown[] = [];
  for (let mb = 0; mb < Number(stringFlag('heap', '0')); mb++) held.push(Array.from({ length: 13_000 }, (_, i) => ({ i, s: `v${i}` })));
  (globalThis as { heldForBench?: unknown }).heldForBench = held;
  await tail(pagePathOf(which));
  server.close();
  await runtime.shutdown();
  await db.stop();
  process.exit(0);
}

process.stdout.write(`${which}, page of 100, ${N} calls each, code ${root}\n| stage | Node CPU ms | FerretDB CPU ms | mongoose calls |\n| --- | --- | --- | --- |\n`);
await stage('HTTP: an admin route without reads (/gateway/sources)', () => get('/gateway/sources'));
if (which === 'log') {
  const { listDeliveries } = await import(`${root}/src/webhooks/deliveries.ts`);
  const { presentDelivery } = await import(`${root}/src/webhooks/presenters.ts`);
  const { getWebhook } = await import(`${root}/src/webhooks/service.ts`);
  const { DeliveryModel, AttemptModel, AttemptResultModel } = await import(`${root}/src/webhooks/model.ts`);
  const filter = { webhookId: target.hookId };
  const page = await listDeliveries(target.botId, target.hookId, { limit: 100 }, config.DELIVERY_LIST_TOTAL_LIMIT);
  const ids = { deliveryId: trusted({ $in: page.items.map((d: { id: string }) => d.id) }) };
  const body = { success: true, deliveries: page.items.map(presentDelivery), pagination: page.pagination };
  await stage('HTTP: the page', () => get(pagePathOf('log')));
  await stage('service: listDeliveries', () => listDeliveries(target.botId, target.hookId, { limit: 100 }, config.DELIVERY_LIST_TOTAL_LIMIT));
  await stage('  the hook (getWebhook)', () => getWebhook(target.botId, target.hookId));
  await stage('  100 deliveries (find, lean)', () => DeliveryModel.find(filter).sort({ _id: 1 }).limit(100).lean());
  await stage('  100 deliveries, _id only (driver)', () => DeliveryModel.collection.find(filter, { projection: { _id: 1 } }).sort({ _id: 1 }).limit(100).toArray());
  await stage('  the count', () => DeliveryModel.countDocuments(filter).limit(config.DELIVERY_LIST_TOTAL_LIMIT + 1));
  await stage('  attempt rows', () => AttemptModel.find(ids).lean());
  await stage('  attempt results', () => AttemptResultModel.find(ids).lean());
  await stage('  100 deliveries (driver, no mongoose)', () => DeliveryModel.collection.find(filter, { sort: { _id: 1 }, limit: 100, batchSize: 101 }).toArray());
  await stage('  attempt results (driver, no mongoose)', () => AttemptResultModel.collection.find(ids).toArray());
  // Trees whose result rows carry the hook id read them beside the page (session 33).
  const { resultsOfHook } = await import(`${root}/src/webhooks/attempts.ts`);
  if (resultsOfHook) await stage("  attempt results, the hook's range (resultsOfHook)", () => resultsOfHook(target.hookId, null, 100));
  await stage('presenters', () => page.items.map(presentDelivery));
  await stage('JSON.stringify', () => JSON.stringify(body));
} else if (which === 'inbox') {
  const { listForAgents } = await import(`${root}/src/chat/agents.ts`);
  const { presentAgentConversation } = await import(`${root}/src/chat/presenters.ts`);
  const { ConversationModel } = await import(`${root}/src/chat/model.ts`);
  const { getBot } = await import(`${root}/src/platform/service.ts`);
  const filter = { botId: target.botId, state: 'Open' };
  const page = await listForAgents(target.botId, 'Open', { limit: 100 });
  const body = { success: true, conversations: page.items.map(presentAgentConversation), pagination: page.pagination };
  await stage('HTTP: the page', () => get(pagePathOf('inbox')));
  await stage('service: listForAgents', () => listForAgents(target.botId, 'Open', { limit: 100 }));
  await stage('  the bot (getBot)', () => getBot(target.botId));
  await stage('  100 conversations (find, lean)', () => ConversationModel.find(filter).sort({ _id: 1 }).limit(100).batchSize(101).lean());
  await stage('  the count', () => ConversationModel.countDocuments(filter));
  await stage('presenters', () => page.items.map(presentAgentConversation));
  await stage('JSON.stringify', () => JSON.stringify(body));
} else {
  const { listDeliveries } = await import(`${root}/src/gateway/service.ts`);
  const { presentDelivery } = await import(`${root}/src/gateway/presenters.ts`);
  const { GatewayDeliveryModel, RuleOutcomeModel, ActionOutcomeModel } = await import(`${root}/src/gateway/model.ts`);
  const page = await listDeliveries({}, { limit: 100 }, config.DELIVERY_LIST_TOTAL_LIMIT);
  const ids = { delivery: trusted({ $in: page.items.map((r: { delivery: { id: string } }) => r.delivery.id) }) };
  const present = () => page.items.map((r: Parameters<typeof presentDelivery>[0]) => presentDelivery(r));
  const body = { success: true, deliveries: present(), pagination: page.pagination };
  await stage('HTTP: the page', () => get(pagePathOf('gateway')));
  await stage('service: listDeliveries', () => listDeliveries({}, { limit: 100 }, config.DELIVERY_LIST_TOTAL_LIMIT));
  await stage('  100 deliveries without rawBody', () => GatewayDeliveryModel.find({}, '-rawBody').sort({ _id: 1 }).limit(100).lean());
  await stage('  100 deliveries without rawBody and headers', () => GatewayDeliveryModel.find({}, '-rawBody -headers').sort({ _id: 1 }).limit(100).lean());
  await stage('  the count', () => GatewayDeliveryModel.countDocuments({}).limit(config.DELIVERY_LIST_TOTAL_LIMIT + 1));
  await stage('  rule outcomes by the page\'s ids', () => RuleOutcomeModel.find(ids).lean());
  await stage('  action outcomes by the page\'s ids', () => ActionOutcomeModel.find(ids).lean());
  // What listDeliveries reads beside the page since session 34 (src/gateway/outcomes.ts), 101 of each.
  const range = { delivery: trusted({ $gte: '' }) };
  await stage('  rule outcomes by their delivery range', () => RuleOutcomeModel.find(range).sort({ delivery: 1 }).limit(101).batchSize(102).lean());
  await stage('  action outcomes by their delivery range', () => ActionOutcomeModel.find(range).sort({ delivery: 1 }).limit(101).batchSize(102).lean());
  await stage('presenters', present);
  await stage('JSON.stringify', () => JSON.stringify(body));
}
server.close();
await runtime.shutdown();
await db.stop();
process.exit(0);
