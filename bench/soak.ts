// Soak: mixed traffic at a fixed arrival rate (open loop) for SOAK_SECONDS (default 600) on
// loopback — non-streamed and streamed 2.0 chat, row writes, periodic syncs, outgoing webhook
// deliveries to a local sink, and signed gateway intake with a `log` rule. Per minute: requests,
// errors, p50/p99 per kind, memory; at the end: p99 drift, memory growth, deliveries sent vs
// received. Progress goes to stderr, the markdown report to stdout. Bounded: no request is issued
// after the deadline and drains wait at most 60 s.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { percentile } from './lib/load.ts';
import { seededText } from './lib/text.ts';
import { createRelayClient, RelayApiError } from '../src/client/index.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createWebhook, setWebhookEnabled } from '../src/webhooks/service.ts';
import { DeliveryModel } from '../src/webhooks/model.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from '../src/gateway/model.ts';
import { EventModel } from '../src/events/model.ts';
import { signBody } from '../src/security/signature.ts';
import { trusted } from '../src/db/connection.ts';

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
  return v;
};
const SOAK_SECONDS = num('SOAK_SECONDS', 600);
const RATES = {
  chat: num('SOAK_CHAT_RATE', 6),
  stream: num('SOAK_STREAM_RATE', 1),
  'rows.add': num('SOAK_ROWS_ADD_RATE', 1),
  'rows.update': num('SOAK_ROWS_UPDATE_RATE', 2),
  // Intake is cheap; processing each delivery (rules, log action) on FerretDB ran at ~3/s alone, so
  // a higher rate builds a backlog whose scans slow every other kind (docs/BENCHMARKS.md, "Soak").
  gateway: num('SOAK_GATEWAY_RATE', 1),
};
const SYNC_SOURCES = Math.max(1, num('SOAK_SYNC_SOURCES', 3));
const SYNC_EVERY_SECONDS = num('SOAK_SYNC_EVERY_SECONDS', 20);
const SYNC_ROWS = num('SOAK_SYNC_ROWS', 40);
const ROWS_PER_ADD = Math.max(1, num('SOAK_ROWS_PER_ADD', 5));
const POOL = Math.max(1, num('SOAK_CONVERSATIONS', 16));
const TURNS = Math.max(1, num('SOAK_TURNS_PER_CONVERSATION', 8));
const MAX_IN_FLIGHT = Math.max(1, num('SOAK_MAX_IN_FLIGHT', 64));
const REQUEST_TIMEOUT_MS = 30_000;
const DRAIN_MS = 60_000;
const SECRET = 'soak-gateway-secret-0123456789';
const KINDS = ['chat', 'stream', 'rows.add', 'rows.update', 'sync', 'gateway'] as const;
type Kind = (typeof KINDS)[number];

const t0 = Date.now();
const clock = () => new Date(Date.now() - t0).toISOString().slice(11, 19);
const progress = (line: string) => process.stderr.write(`[soak ${clock()}] ${line}\n`);

// Heap figures are taken after a full collection, or minute-to-minute noise hides any growth.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

// --- Outgoing webhook sink -----------------------------------------------------------------------
const sinkIds = new Set<string>();
let sinkRequests = 0;
const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    sinkRequests++;
    const id = req.headers['x-service-delivery-id'];
    if (typeof id === 'string') sinkIds.add(id);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});
sink.keepAliveTimeout = 60_000;
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/hook`;

// --- Gateway files (as test/gateway/support/gatewayFiles.ts writes them) -------------------------
const gatewayRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-soak-'));
fs.mkdirSync(path.join(gatewayRoot, 'rules'));
fs.writeFileSync(path.join(gatewayRoot, 'gateway.json'), JSON.stringify({ sources: { soak: { secrets: [SECRET] } } }, null, 2));
fs.writeFileSync(
  path.join(gatewayRoot, 'rules', 'log.json'),
  JSON.stringify({ name: 'soak-log', sources: ['soak'], actions: [{ type: 'log', message: "'soak ' & event & ' ' & deliveryId" }] }, null, 2),
);

progress('starting runtime');
const bench = await startBenchRuntime({
  env: {
    GATEWAY_CONFIG: path.join(gatewayRoot, 'gateway.json'),
    RULES_DIR: path.join(gatewayRoot, 'rules'),
    PLAN_LIMITS_JSON: JSON.stringify({ standard: { chatTokens: 1_000_000_000, storageTokens: 1_000_000_000, dataSourcesPerBot: 50 } }),
  },
});
const tenant = await provisionTenant({ team: 'soak', bot: 'soak' });
const api = createRelayClient({ baseUrl: bench.baseUrl, channelId: tenant.channelId, secretKey: tenant.secretKey, timeoutMs: REQUEST_TIMEOUT_MS });

// FerretDB's own memory, found by its listen address (absent with MONGODB_URI).
function ferretRssMiB(): number | null {
  if (process.env.MONGODB_URI) return null;
  const port = new URL(bench.uri).port;
  try {
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      let cmd: string;
      try {
        cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (!cmd.includes(`--listen-addr=127.0.0.1:${port}`) || path.basename(cmd.split('\0')[0] ?? '') === 'sh') continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (rss) return Number(rss[1]) / 1024;
    }
  } catch {
    /* no /proc */
  }
  return null;
}

// --- Content ---------------------------------------------------------------------------------------
const { random, words } = seededText(7);
const markdown = (title: string) => `# ${title}\n\n## Overview\n\n${words(80)}.\n\n## Details\n\n${words(80)}.\n`;
const question = () => `How do I ${words(4)}?`;

// --- Data sources: a few synced ones of fixed size (rows updated in place), one that only grows ----
progress(`seeding ${SYNC_SOURCES} sync sources of ${SYNC_ROWS} rows`);
const syncSources: Array<{ id: string; rowIds: string[] }> = [];
for (let s = 0; s < SYNC_SOURCES; s++) {
  const ds = await api.dataSources.create();
  for (let i = 0; i < SYNC_ROWS; i += 20) {
    await api.rows.add(ds.id, Array.from({ length: Math.min(20, SYNC_ROWS - i) }, (_, j) => ({ name: `doc-${s}-${i + j}.md`, content: markdown(`Doc ${s}-${i + j}`) })));
  }
  const rowIds: string[] = [];
  for await (const row of api.rows.iterate(ds.id)) rowIds.push(row.id);
  syncSources.push({ id: ds.id, rowIds });
  await api.dataSources.sync(ds.id);
}
const growing = await api.dataSources.create();
for (const { id } of syncSources) {
  const until = Date.now() + 60_000;
  while ((await api.dataSources.get(id)).state === 'syncing' && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
}

// --- Chat conversations: a pool, each used for TURNS turns then replaced by a new one --------------
interface Slot {
  id: string | null;
  turns: number;
  renewing: boolean;
}
const slots: Slot[] = Array.from({ length: POOL }, () => ({ id: null, turns: 0, renewing: false }));
let slotCursor = 0;
let conversationsStarted = 0;
/** A conversation to talk in, or null: start a new one (then `done` records it). */
function pickConversation(): { conversationId: string | undefined; done: (id: string | null) => void } {
  const slot = slots[slotCursor++ % POOL]!;
  if ((slot.id === null || slot.turns >= TURNS) && !slot.renewing) {
    slot.renewing = true;
    return {
      conversationId: undefined,
      done: (id) => {
        slot.renewing = false;
        if (id) {
          conversationsStarted++;
          slot.id = id;
          slot.turns = 1;
        }
      },
    };
  }
  if (slot.id === null) return { conversationId: undefined, done: (id) => void (id && conversationsStarted++) };
  slot.turns++;
  return { conversationId: slot.id, done: () => undefined };
}

// --- One attempt of each kind; throws on an unexpected answer, returns 'expected' for a 429 sync --
type Outcome = 'ok' | 'expected';
let addCount = 0;
const openStreams = new Set<AbortController>();
let syncCursor = 0;
let gatewayAccepted = 0;
const actions: Record<Kind, () => Promise<Outcome>> = {
  async chat() {
    const c = pickConversation();
    try {
      const reply = await api.chat.sendMessage({ message: question(), conversationId: c.conversationId });
      c.done(c.conversationId ? null : reply.conversationId);
    } catch (err) {
      c.done(null);
      throw err;
    }
    return 'ok';
  },
  async stream() {
    const c = pickConversation();
    let id: string | null = null;
    let cleanup: () => void = () => {};
    try {
      // A whole stream is bounded like a request; the drain deadline aborts what is left. A plain
      // controller and timer: AbortSignal.any over AbortSignal.timeout did not fire here on Node 20.
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new DOMException(`stream not finished within ${REQUEST_TIMEOUT_MS} ms`, 'TimeoutError')), REQUEST_TIMEOUT_MS);
      openStreams.add(controller);
      cleanup = () => {
        clearTimeout(timer);
        openStreams.delete(controller);
      };
      const stream = await api.chat.streamMessage({ message: question(), conversationId: c.conversationId }, { signal: controller.signal });
      let finished = false;
      for await (const chunk of stream) {
        if (chunk.type === 'error' || chunk.type === 'data-error') throw new Error(`stream error chunk: ${JSON.stringify(chunk).slice(0, 200)}`);
        if (chunk.type === 'finish') finished = true;
      }
      if (!finished) throw new Error('stream ended without a finish chunk');
      id = stream.conversationId;
    } finally {
      cleanup();
      c.done(c.conversationId ? null : id);
    }
    return 'ok';
  },
  async 'rows.add'() {
    const n = addCount++;
    await api.rows.add(growing.id, Array.from({ length: ROWS_PER_ADD }, (_, j) => ({ name: `added-${n}-${j}.md`, content: markdown(`Added ${n}-${j}`) })));
    return 'ok';
  },
  async 'rows.update'() {
    const src = syncSources[Math.floor(random() * syncSources.length)]!;
    const rowId = src.rowIds[Math.floor(random() * src.rowIds.length)]!;
    await api.rows.update(src.id, [{ id: rowId, name: `updated-${rowId}.md`, content: markdown(`Updated ${rowId}`) }]);
    return 'ok';
  },
  async sync() {
    const src = syncSources[syncCursor++ % syncSources.length]!;
    try {
      await api.dataSources.sync(src.id);
      return 'ok';
    } catch (err) {
      if (err instanceof RelayApiError && err.status === 429 && err.code === 'already_syncing') return 'expected';
      throw err;
    }
  },
  async gateway() {
    const deliveryId = randomUUID();
    const body = JSON.stringify({ event: 'conversation.started', deliveryId, timestamp: new Date().toISOString(), conversation: { id: randomUUID(), botName: 'Soak', channelType: 'web' } });
    const res = await fetch(`${bench.baseUrl}/gateway/soak`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, SECRET), 'x-service-delivery-id': deliveryId, 'x-service-event': 'conversation.started' },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status !== 202) throw new RelayApiError(res.status, `http_${res.status}`, text.slice(0, 200));
    gatewayAccepted++;
    return 'ok';
  },
};

// Warm-up (before the webhook is enabled and before the clock starts): JIT, connections, indexes.
progress('warm-up');
for (let i = 0; i < 10; i++) for (const kind of KINDS) await actions[kind]().catch(() => undefined);
const warmupConversations = conversationsStarted;
for (const slot of slots) slot.turns = TURNS; // every conversation is replaced once the hook is on
const { webhook } = await createWebhook(bench.runtime.ctx, tenant.botId, { type: 'conversation.started', url: sinkUrl });
await setWebhookEnabled(tenant.botId, webhook.id, true);
conversationsStarted = 0;
gatewayAccepted = 0;
const addsBefore = addCount;

// --- Per-minute accounting (by completion time) ----------------------------------------------------
interface Bucket {
  requests: number;
  errors: number;
  expected: number;
  latencies: number[];
}
const minutes = Math.max(1, Math.ceil(SOAK_SECONDS / 60));
const buckets: Array<Record<Kind, Bucket>> = Array.from({ length: minutes }, () =>
  Object.fromEntries(KINDS.map((k) => [k, { requests: 0, errors: 0, expected: 0, latencies: [] as number[] }])) as Record<Kind, Bucket>,
);
const errorSamples = new Map<string, number>();
const shed: Record<Kind, number> = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
const describe = (kind: Kind, err: unknown) =>
  err instanceof RelayApiError ? `${kind}: ${err.status} ${err.code}` : `${kind}: ${(err as Error).name} ${String((err as Error).message).slice(0, 120)}`;

interface Sample {
  rss: number;
  heap: number;
  ferret: number | null;
  loopP99: number;
}
const samples: Sample[] = [];
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const MiB = 2 ** 20;
function sampleMemory(): Sample {
  gc();
  const m = process.memoryUsage();
  const s = { rss: m.rss / MiB, heap: m.heapUsed / MiB, ferret: ferretRssMiB(), loopP99: loop.percentile(99) / 1e6 };
  loop.reset();
  return s;
}

const start = performance.now();
const startedAt = new Date();
const deadline = start + SOAK_SECONDS * 1000;
const inFlight = new Set<Promise<void>>();
const inFlightOf: Record<Kind, number> = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;

function fire(kind: Kind, due: number): void {
  if (inFlightOf[kind] >= MAX_IN_FLIGHT) {
    shed[kind]++;
    return;
  }
  inFlightOf[kind]++;
  const p = actions[kind]().then(
    (outcome) => record(kind, due, outcome === 'expected' ? 'expected' : 'ok'),
    (err) => {
      const key = describe(kind, err);
      errorSamples.set(key, (errorSamples.get(key) ?? 0) + 1);
      record(kind, due, 'error');
    },
  );
  const tracked = p.finally(() => {
    inFlightOf[kind]--;
    inFlight.delete(tracked);
  });
  inFlight.add(tracked);
}
function record(kind: Kind, due: number, outcome: 'ok' | 'expected' | 'error'): void {
  const now = performance.now();
  const b = buckets[Math.min(minutes - 1, Math.floor((now - start) / 60_000))]![kind];
  b.requests++;
  // Latency from the scheduled send time, so a stalled event loop counts against us (open loop).
  b.latencies.push(now - due);
  if (outcome === 'error') b.errors++;
  if (outcome === 'expected') b.expected++;
}

/** Fixed arrival rate regardless of answers, until the deadline. */
async function openLoop(kind: Kind, rate: number): Promise<void> {
  if (rate <= 0) return;
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / rate;
    if (due >= deadline) return;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    fire(kind, due);
  }
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const sorted = (kind: Kind, minute: number) => [...buckets[minute]![kind].latencies].sort((a, b) => a - b);
const p = (kind: Kind, minute: number, q: number) => percentile(sorted(kind, minute), q);
function minuteTotals(minute: number) {
  let requests = 0;
  let errors = 0;
  let expected = 0;
  for (const kind of KINDS) {
    const b = buckets[minute]![kind];
    requests += b.requests;
    errors += b.errors;
    expected += b.expected;
  }
  return { requests, errors, expected };
}

const totalRate = Object.values(RATES).reduce((a, b) => a + b, 0) + (SYNC_EVERY_SECONDS > 0 ? SYNC_SOURCES / SYNC_EVERY_SECONDS : 0);
progress(`measuring for ${SOAK_SECONDS} s at ~${fmt(totalRate, 1)} req/s (${Object.entries(RATES).map(([k, v]) => `${k} ${v}/s`).join(', ')}, sync ${SYNC_SOURCES} sources every ${SYNC_EVERY_SECONDS} s)`);
const minuteTimers: NodeJS.Timeout[] = [];
/** Backlogs at each minute's end, from the database: what the sink and the rules have yet to see. */
interface Backlog {
  started: number;
  sink: number;
  gatewayStored: number;
  gatewayProcessed: number;
}
const backlogs: Backlog[] = [];
const minuteReports: Promise<void>[] = [];
const gatewayFilter = { source: 'soak', receivedAt: trusted({ $gte: startedAt }) };
const startedEvents = () => EventModel.countDocuments({ botId: tenant.botId, type: 'conversation.started', createdAt: trusted({ $gte: startedAt }) });
const gatewayCounts = async () => ({
  stored: await GatewayDeliveryModel.countDocuments(gatewayFilter),
  processed: await GatewayDeliveryModel.countDocuments({ ...gatewayFilter, processedAt: trusted({ $ne: null }) }),
});
for (let m = 0; m < minutes; m++) {
  const at = Math.min(SOAK_SECONDS * 1000, (m + 1) * 60_000);
  minuteTimers.push(
    setTimeout(() => {
      const s = sampleMemory();
      samples[m] = s;
      const sink = sinkIds.size;
      const report = async () => {
        const [started, gw] = await Promise.all([startedEvents(), gatewayCounts()]);
        backlogs[m] = { started, sink, gatewayStored: gw.stored, gatewayProcessed: gw.processed };
        const t = minuteTotals(m);
        const p99s = KINDS.map((k) => `${k} ${fmt(p(k, m, 99))}`).join(', ');
        progress(
          `minute ${m + 1}/${minutes}: ${t.requests} req, ${t.errors} errors, ${t.expected} already_syncing; p99 ms ${p99s}; ` +
            `RSS ${fmt(s.rss)} MiB, heap ${fmt(s.heap, 1)} MiB${s.ferret === null ? '' : `, FerretDB ${fmt(s.ferret)} MiB`}; ` +
            `webhook sink ${sink}/${started}; gateway processed ${gw.processed}/${gw.stored}; in flight ${inFlight.size}`,
        );
      };
      minuteReports.push(report().catch((err) => void progress(`minute ${m + 1}: report failed: ${(err as Error).message}`)));
    }, at - (performance.now() - start)),
  );
}
await Promise.all([
  ...Object.entries(RATES).map(([kind, rate]) => openLoop(kind as Kind, rate)),
  openLoop('sync', SYNC_EVERY_SECONDS > 0 ? SYNC_SOURCES / SYNC_EVERY_SECONDS : 0),
]);
const sendingStopped = performance.now();

// --- Drains: at most DRAIN_MS in all ----------------------------------------------------------------
const drainDeadline = Date.now() + DRAIN_MS;
const untilDrain = () => Math.max(0, drainDeadline - Date.now());
await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, untilDrain()))]);
const leftInFlight = inFlight.size;
for (const controller of openStreams) controller.abort(new Error('drain deadline'));
await new Promise((r) => setTimeout(r, Math.max(0, deadline - performance.now()) + 50)); // last minute's sample
await Promise.all(minuteReports);
while (Date.now() < drainDeadline && sinkIds.size < (await startedEvents())) await new Promise((r) => setTimeout(r, 500));
for (let gw = await gatewayCounts(); Date.now() < drainDeadline && gw.processed < gw.stored; gw = await gatewayCounts()) await new Promise((r) => setTimeout(r, 500));
const drainSeconds = (DRAIN_MS - untilDrain()) / 1000;
for (const t of minuteTimers) clearTimeout(t);
const endSample = sampleMemory();

// --- Figures from the database ----------------------------------------------------------------------
const createdDeliveries = await DeliveryModel.countDocuments({ createdAt: trusted({ $gte: startedAt }) });
const deliveredStatus = await DeliveryModel.aggregate<{ _id: string; n: number }>([{ $match: { createdAt: trusted({ $gte: startedAt }) } }, { $group: { _id: '$status', n: { $sum: 1 } } }]);
const { stored: gatewayStored, processed: gatewayProcessed } = await gatewayCounts();
const startedTotal = await startedEvents();
const logActions = await ActionOutcomeModel.aggregate<{ _id: string; n: number }>([{ $match: { createdAt: trusted({ $gte: startedAt }), type: 'log' } }, { $group: { _id: '$status', n: { $sum: 1 } } }]);
const syncIds = syncSources.map((s) => s.id);
const syncEvents = await EventModel.aggregate<{ _id: string; n: number }>([
  { $match: { createdAt: trusted({ $gte: startedAt }), dataSourceId: trusted({ $in: syncIds }) } },
  { $group: { _id: '$type', n: { $sum: 1 } } },
]);
// What grew: FerretDB v1 scans a whole collection for any filter but _id equality (docs/FERRETDB.md).
const db = mongoose.connection.db!;
const collectionSizes = (
  await Promise.all((await db.listCollections({}, { nameOnly: true }).toArray()).map(async (c) => ({ name: c.name, n: await db.collection(c.name).estimatedDocumentCount() })))
).sort((a, b) => b.n - a.n);
const counts = (rows: Array<{ _id: string; n: number }>) => rows.map((r) => `${r._id} ${r.n}`).join(', ') || 'none';

// --- Report -----------------------------------------------------------------------------------------
const out: string[] = [];
const measuredMinutes = samples.length;
out.push(`## Soak (\`bench/soak.ts\`)`, '');
out.push(`${machineLine()}; FerretDB ${process.env.MONGODB_URI ? '(MONGODB_URI)' : 'v1.24.2 embedded'}; one process holds the server, the worker and the load generator.`);
out.push(
  `${SOAK_SECONDS} s open loop at ~${fmt(totalRate, 1)} req/s: chat ${RATES.chat}/s (non-streamed, a new conversation every ${TURNS} turns over ${POOL} slots), ` +
    `stream ${RATES.stream}/s (2.0 SSE, to the finish chunk), rows.add ${RATES['rows.add']}/s (${ROWS_PER_ADD} rows into a growing source), ` +
    `rows.update ${RATES['rows.update']}/s (one row of a synced source), sync start on ${SYNC_SOURCES} sources of ${SYNC_ROWS} rows every ${SYNC_EVERY_SECONDS} s, ` +
    `gateway ${RATES.gateway}/s (signed, \`log\` rule). Latency from the scheduled send time; heap after a forced GC.`,
  '',
);
out.push(`| min | requests | errors | already_syncing | ${KINDS.map((k) => `${k} p50/p99 ms`).join(' | ')} | RSS MiB | heap MiB | FerretDB RSS MiB | loop delay p99 ms | webhook sink / expected | gateway processed / stored |`);
out.push(`| ${Array.from({ length: 10 + KINDS.length }, () => '---').join(' | ')} |`);
for (let m = 0; m < minutes; m++) {
  const t = minuteTotals(m);
  const s = samples[m];
  const bl = backlogs[m];
  out.push(
    `| ${m + 1} | ${t.requests} | ${t.errors} | ${t.expected} | ${KINDS.map((k) => `${fmt(p(k, m, 50))} / ${fmt(p(k, m, 99))}`).join(' | ')} | ` +
      `${s ? fmt(s.rss) : '–'} | ${s ? fmt(s.heap, 1) : '–'} | ${s?.ferret == null ? '–' : fmt(s.ferret)} | ${s ? fmt(s.loopP99, 1) : '–'} | ` +
      `${bl ? `${bl.sink} / ${bl.started}` : '–'} | ${bl ? `${bl.gatewayProcessed} / ${bl.gatewayStored}` : '–'} |`,
  );
}
const totals = Array.from({ length: minutes }, (_, m) => minuteTotals(m)).reduce((a, b) => ({ requests: a.requests + b.requests, errors: a.errors + b.errors, expected: a.expected + b.expected }));
const last = minutes - 1;
const first = samples[0];
const lastSample = samples[measuredMinutes - 1] ?? endSample;
out.push('');
out.push(`- requests answered: ${totals.requests}; **errors: ${totals.errors}**; already_syncing (expected): ${totals.expected}; not sent (in-flight cap ${MAX_IN_FLIGHT}): ${Object.values(shed).reduce((a, b) => a + b, 0)}; still in flight after drain: ${leftInFlight}`);
if (errorSamples.size) out.push(`- error kinds: ${[...errorSamples].map(([k, n]) => `${k} ×${n}`).join('; ')}`);
out.push(`- p99 drift (minute ${minutes} / minute 1): ${KINDS.map((k) => `${k} ${fmt(p(k, last, 99) / p(k, 0, 99), 2)}x`).join(', ')}`);
if (first) {
  out.push(
    `- memory after minute 1 → end: RSS ${fmt(first.rss)} → ${fmt(lastSample.rss)} MiB (${fmt(((lastSample.rss - first.rss) / first.rss) * 100, 1)}%), ` +
      `heap ${fmt(first.heap, 1)} → ${fmt(lastSample.heap, 1)} MiB (${fmt(((lastSample.heap - first.heap) / first.heap) * 100, 1)}%)` +
      (first.ferret !== null && lastSample.ferret !== null ? `, FerretDB RSS ${fmt(first.ferret)} → ${fmt(lastSample.ferret)} MiB` : '') +
      `; after the drain: RSS ${fmt(endSample.rss)} MiB, heap ${fmt(endSample.heap, 1)} MiB`,
  );
}
out.push(
  `- outgoing deliveries: ${startedTotal} conversation.started events = expected deliveries (${conversationsStarted} new conversations answered to the client), ` +
    `${createdDeliveries} deliveries created (${counts(deliveredStatus)}), ` +
    `**${sinkIds.size} received by the sink** (${sinkRequests} requests incl. retries)`,
);
out.push(`- gateway: ${gatewayAccepted} accepted (202), **${gatewayStored} stored**, ${gatewayProcessed} processed; log actions: ${counts(logActions)}`);
out.push(`- syncs on the ${SYNC_SOURCES} sources: ${counts(syncEvents)}; rows added ${(addCount - addsBefore) * ROWS_PER_ADD} (growing source)`);
out.push(`- largest collections at the end: ${collectionSizes.slice(0, 10).map((c) => `${c.name} ${c.n}`).join(', ')}`);
out.push(`- sending stopped at ${fmt((sendingStopped - start) / 1000, 1)} s; drains took ${fmt(drainSeconds, 1)} s (limit ${DRAIN_MS / 1000} s); warm-up conversations (no hook yet): ${warmupConversations}`);
process.stdout.write(`${out.join('\n')}\n`);

progress('closing');
const closeGuard = setTimeout(() => {
  progress('close did not finish within 60 s; exiting');
  process.exit(1);
}, 60_000);
loop.disable();
await bench.close();
sink.closeAllConnections();
await new Promise<void>((r) => sink.close(() => r()));
fs.rmSync(gatewayRoot, { recursive: true, force: true });
clearTimeout(closeGuard);
