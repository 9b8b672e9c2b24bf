// What one list or get request costs the database (issue 17), counted rather than timed so the
// machine's load cannot move it: the driver commands a request sends, the SQL statements FerretDB
// runs for them, SQLite's plan for each (an index search or a scan of the whole table) and how
// many rows each statement yields. Seeds a big tenant and a small one through the services, then
// sends every probe of bench/scale.ts once per tenant with nothing else running.
//
//   node --import tsx bench/reads.ts [--rows 3000] [--conversations 300] [--events 2000] [--gateway 1000] [--requests 50] [--sql] [--keep]
//
// --sql prints each statement with its plan and SQLite's work. Embedded FerretDB only (it reads
// FerretDB's SQL log and its SQLite file; Go builds bench/sqlite-work). The CPU per request
// (FerretDB's and this process's) and the wall clock (p50, p99 of --requests) are measured
// afterwards on the same data with FerretDB's debug log off, since that log dumps every reply.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { fetch } from 'undici';
import { loadConfig } from '../src/config.ts';
import { startFerretDb } from '../src/db/ferretdb.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { createApp } from '../src/http/app.ts';
import { machineLine } from './lib/runtime.ts';
import { processTreeCpuMs } from './lib/cpu.ts';
import { endpointProbes, timeRequest, type Probe } from './lib/probes.ts';
import { seededText } from './lib/text.ts';
import { drained, writeBenchRule } from './lib/gatewayRule.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createRelayClient } from '../src/client/index.ts';
import { signBody } from '../src/security/signature.ts';
import { startConversation, recordMessages } from '../src/chat/service.ts';
import { createWebhook, setWebhookEnabled } from '../src/webhooks/service.ts';
import { mapLimit } from '../src/datasources/rows.ts';
import { DataSourceModel } from '../src/datasources/model.ts';
import { performSync } from '../src/datasources/sync.job.ts';
import { syncAndWait } from './lib/sync.ts';
import { percentile } from './lib/load.ts';
import { numberFlag } from './lib/args.ts';

const ROWS = numberFlag('rows', 3000);
const CONVERSATIONS = numberFlag('conversations', 300);
const EVENTS = numberFlag('events', 2000);
const GATEWAY = numberFlag('gateway', 1000);
const REQUESTS = numberFlag('requests', 50);
const SHOW_SQL = process.argv.includes('--sql');
const progress = (line: string) => process.stderr.write(`[reads ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const ADMIN_TOKEN = 'bench-reads-admin-token-0123456789';
const GATEWAY_SECRET = 'bench-reads-gateway-secret';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-reads-'));
writeBenchRule(path.join(dir, 'rules'));
fs.writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [GATEWAY_SECRET] } } }));
const dataDir = path.join(dir, 'db');
const sqlLog = path.join(dataDir, 'ferretdb.log');
const configFor = (uri: string) => loadConfig({
  MONGODB_URI: uri,
  ADMIN_TOKEN,
  RETENTION_DAYS: '0',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
  RULES_DIR: path.join(dir, 'rules'),
  DATA_DIR: path.join(dir, 'data'),
  JOB_PROCESS_EVERY_MS: '200',
});

async function serve(runtime: Runtime) {
  const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

// ---- Seeding, with the worker running (fan-out, gateway processing) --------------------------------
const sink = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/hook`;
const { words } = seededText(17);

interface Tenant {
  botId: string;
  channelId: string;
  secretKey: string;
  dataSourceId: string;
  rowIds: string[];
  conversationIds: string[];
  webhookId?: string;
}

async function seedTenant(runtime: Runtime, baseUrl: string, rows: number, conversations: number, withWebhook: boolean): Promise<Tenant> {
  const t = await provisionTenant({ plan: 'enterprise' });
  const api = createRelayClient({ baseUrl, channelId: t.channelId, secretKey: t.secretKey, timeoutMs: 600_000 });
  const tenant: Tenant = { ...t, dataSourceId: (await api.dataSources.create()).id, rowIds: [], conversationIds: [] };
  if (withWebhook) {
    // Hooks are created disabled; enabled, each conversation.started event gets a delivery in its log.
    tenant.webhookId = (await createWebhook(runtime.ctx, t.botId, { type: 'conversation.started', url: sinkUrl })).webhook.id;
    await setWebhookEnabled(t.botId, tenant.webhookId, true);
  }
  const batches = Array.from({ length: Math.ceil(rows / 100) }, (_, b) =>
    Array.from({ length: Math.min(100, rows - b * 100) }, (_, i) => ({ name: `item-${b * 100 + i}.md`, content: `# Item ${b * 100 + i}\n\n${words(300)}` })),
  );
  await mapLimit(batches, 4, (batch) => api.rows.add(tenant.dataSourceId, batch));
  const scope = { bot: { id: t.botId, name: 'Bench bot', teamId: t.teamId, welcomeMessage: null }, channelId: t.channelId };
  tenant.conversationIds = await mapLimit(Array.from({ length: conversations }), 8, async () => {
    const conversation = await startConversation(runtime.ctx, scope as never, {});
    const messages = Array.from({ length: 10 }, (_, m) => ({ role: m % 2 ? ('assistant' as const) : ('user' as const), message: words(12) }));
    await recordMessages(runtime.ctx, conversation, messages);
    return conversation.id;
  });
  for await (const row of api.rows.iterate(tenant.dataSourceId, { pageSize: 100 })) tenant.rowIds.push(row.id);
  return tenant;
}

progress(`seeding: ${ROWS} rows, ${CONVERSATIONS} conversations, ${EVENTS} events, ${GATEWAY} gateway deliveries`);
let db = await startFerretDb({ dataDir, database: 'relay_reads' });
const seeder = await createRuntime({ config: configFor(db.uri), logger: createLogger('silent'), uri: db.uri });
await seeder.startWorker();
const seedServer = await serve(seeder);
const big = await seedTenant(seeder, seedServer.baseUrl, ROWS, CONVERSATIONS, true);
const small = await seedTenant(seeder, seedServer.baseUrl, 25, 5, false);
await mapLimit(Array.from({ length: EVENTS }), 16, () =>
  seeder.ctx.events.emit({ type: 'conversation.started', teamId: 'bench', botId: big.botId, payload: { conversation: { id: randomUUID() } } }),
);
await mapLimit(Array.from({ length: GATEWAY }), 16, async () => {
  const body = JSON.stringify({ event: 'conversation.started', deliveryId: randomUUID(), timestamp: new Date().toISOString(), conversation: { id: randomUUID() } });
  const res = await fetch(`${seedServer.baseUrl}/gateway/relay`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, GATEWAY_SECRET) } });
  await res.arrayBuffer();
});
// Synced, as bench/scale.ts's big source is before it times a sync start.
for (const t of [big, small]) await syncAndWait(createRelayClient({ baseUrl: seedServer.baseUrl, channelId: t.channelId, secretKey: t.secretKey, timeoutMs: 600_000 }), t.dataSourceId, 100);
progress('seeded; letting the worker drain');
await drained(progress, 2000);
seedServer.server.close();
await seeder.shutdown();
await db.stop();

// ---- Counting: FerretDB logging its SQL, an API-only runtime, so every command and statement belongs to the request
db = await startFerretDb({ dataDir, database: 'relay_reads', logSql: true });
let runtime = await createRuntime({ config: configFor(db.uri), logger: createLogger('silent'), uri: `${db.uri}?monitorCommands=true`, role: { api: true, worker: false } });
let { server, baseUrl } = await serve(runtime);
const commands: string[] = [];
let returned = 0;
const client = mongoose.connection.getClient();
client.on('commandStarted', (e) => {
  const target = e.command[e.commandName];
  commands.push(`${e.commandName}${typeof target === 'string' ? ` ${target}` : ''}`);
});
const durations: string[] = [];
client.on('commandSucceeded', (e) => {
  returned += (e.reply as { cursor?: { firstBatch?: unknown[] } }).cursor?.firstBatch?.length ?? 0;
  durations.push(`${e.commandName} ${e.duration.toFixed(1)} ms`);
});

/** FerretDB's table for each collection, to name statements by collection. */
const sqliteFile = path.join(dataDir, 'relay_reads.sqlite');
const sqlite = (sql: string) => execFileSync('sqlite3', ['-readonly', sqliteFile, sql], { encoding: 'utf8', maxBuffer: 1 << 26 });
const tables = new Map<string, string>();
for (const line of sqlite('SELECT name, table_name FROM _ferretdb_collections').trim().split('\n')) {
  const [name, table] = line.split('|');
  tables.set(table!, name!);
}

const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
/** The statement with its arguments written in, for the sqlite3 shell. */
function bind(sql: string, args: unknown[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => literal(args[i++]));
}

interface Statement {
  collection: string;
  plan: string;
  rows: number;
  /** A sorted read SQLite answers in index order: the handler stops after the page, so it reads about what it returns. */
  lazy: boolean;
  /** FerretDB's probe for arrays in an indexed field (an index seek, no document read). */
  probe: boolean;
  sql: string;
  steps: number;
  pages: number;
}

/**
 * The SQLite FerretDB links (modernc.org/sqlite 3.46; Debian's shell is 3.40 and plans expression
 * indexes differently) runs each statement in bench/sqlite-work, built once with Go: its plan, the
 * rows it yields (a lazy read stops after a batch, 101 rows, as FerretDB's handler does), its
 * virtual machine steps (a few per row visited in an index or the table), its full-scan steps and
 * the pages it touched.
 */
const workSource = path.join(import.meta.dirname, 'sqlite-work');
const workHash = createHash('sha256').update(fs.readFileSync(path.join(workSource, 'main.go'))).update(fs.readFileSync(path.join(workSource, 'go.mod'))).digest('hex').slice(0, 12);
const workTool = path.join(os.tmpdir(), `relay-sqlite-work-${workHash}`);
if (!fs.existsSync(workTool)) execFileSync('go', ['build', '-o', workTool, '.'], { cwd: workSource, stdio: 'inherit' });
interface Work {
  plan: string[] | null;
  rows: number;
  bytes: number;
  steps: number;
  fullscan: number;
  pages: number;
  error?: string;
}
function work(bound: string, limit: number): Work {
  const out = execFileSync(workTool, [sqliteFile], { input: `${JSON.stringify({ sql: bound, limit })}\n`, encoding: 'utf8', maxBuffer: 1 << 26 });
  const w = JSON.parse(out) as Work;
  if (w.error) throw new Error(`${w.error}: ${bound}`);
  return w;
}

function analyse(sql: string, args: unknown[]): Statement {
  const table = /FROM "?([a-z0-9_]+)"?/i.exec(sql)?.[1] ?? '?';
  const bound = bind(sql, args);
  const lazy = /ORDER BY/.test(sql) && !/TEMP B-TREE/.test(work(bound, 1).plan!.join('; '));
  const w = work(bound, lazy ? 101 : 0);
  const plan = (w.plan ?? []).filter((l) => /SCAN|SEARCH|TEMP B-TREE/.test(l)).join('; ');
  return { collection: tables.get(table) ?? table, plan, rows: w.rows, lazy, probe: /^SELECT EXISTS/.test(sql), sql: bound, steps: w.steps, pages: w.pages };
}

/** The statements FerretDB logged from `offset` on (only SELECTs: the reads are what is measured). */
function statementsSince(offset: number): Statement[] {
  const fd = fs.openSync(sqlLog, 'r');
  const size = fs.fstatSync(fd).size;
  const buf = Buffer.alloc(size - offset);
  fs.readSync(fd, buf, 0, buf.length, offset);
  fs.closeSync(fd);
  const out: Statement[] = [];
  for (const line of buf.toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; args?: unknown[] };
    if (!entry.msg?.startsWith('>>> ')) continue;
    const sql = entry.msg.slice(4).trim();
    if (!/^SELECT/i.test(sql) || /sqlite_master|_ferretdb_collections/.test(sql)) continue;
    out.push(analyse(sql, entry.args ?? []));
  }
  return out;
}

async function get(url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { success: boolean };
  if (!body.success) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
}

function probes(t: Tenant): Probe[] {
  const api = createRelayClient({ baseUrl, channelId: t.channelId, secretKey: t.secretKey });
  const admin = (p: string) => get(`${baseUrl}/api/admin${p}`, { authorization: `Bearer ${ADMIN_TOKEN}` });
  const list = endpointProbes(api, admin, { ...t, conversationId: t.conversationIds[Math.floor(t.conversationIds.length / 2)]! });
  if (t.webhookId) list.push(['gateway delivery list (admin)', () => admin('/gateway/deliveries?limit=100')]);
  return list;
}

const counted = new Map<string, string>();
const tenants = [['big', big], ['small', small]] as const;

/** Sends `request` twice (warm, then counted) and keeps what the counted one cost under `key`. */
async function countRequest(key: string, request: () => Promise<unknown>, between: () => Promise<unknown> = async () => undefined): Promise<void> {
  await request(); // warm: caches and connections as a steady state has them
  await between();
  await new Promise((r) => setTimeout(r, 50));
  commands.length = 0;
  durations.length = 0;
  returned = 0;
  const offset = fs.statSync(sqlLog).size;
  await request();
  await new Promise((r) => setTimeout(r, 100)); // FerretDB's log write
  const sent = [...commands];
  const took = [...durations];
  const docs = returned;
  const statements = statementsSince(offset);
  await between();
  // A table scan: a SCAN step that reads no index (a constant row or a subquery's result is no table)
  const scans = statements.filter((s) => s.plan.split('; ').some((step) => /^SCAN (?!CONSTANT ROW|\(subquery)/.test(step) && !/COVERING|USING INDEX/.test(step)));
  const eager = statements.filter((s) => !s.lazy && !s.probe && !/COUNT\(\*\)/.test(s.sql)).reduce((sum, s) => sum + s.rows, 0);
  const arrayProbes = statements.filter((s) => s.probe).length;
  const steps = statements.reduce((sum, s) => sum + s.steps, 0);
  const pages = statements.reduce((sum, s) => sum + s.pages, 0);
  counted.set(key, `${sent.length} | ${statements.length} (${arrayProbes}) | ${docs} | ${eager} | ${steps} | ${pages} | ${scans.map((s) => s.collection).join(', ') || '-'}`);
  if (SHOW_SQL) {
    process.stdout.write(`${key}\n    commands: ${sent.join(', ')}\n    answered in (FerretDB logging): ${took.join(', ')}\n`);
    for (const s of statements.filter((s) => !s.probe || s.steps > 200)) {
      process.stdout.write(`    ${s.collection}: ${s.rows} rows${s.lazy ? ' (lazy)' : ''}, ${s.steps} steps, ${s.pages} pages; ${s.plan}\n`);
    }
  }
}

/**
 * The sync start (issue 17: < 50 ms) of a synced source with nothing changed, as bench/scale.ts
 * times it. This runtime has no worker: the sync it starts is run here to its end (performSync),
 * outside the count and the timing, so every start finds the source synced.
 */
function syncStart(t: Tenant): { start: () => Promise<unknown>; finish: () => Promise<unknown> } {
  const api = createRelayClient({ baseUrl, channelId: t.channelId, secretKey: t.secretKey });
  return {
    start: () => api.dataSources.sync(t.dataSourceId),
    finish: async () => {
      const ds = await DataSourceModel.findById(t.dataSourceId, { syncRun: 1 }).lean<{ syncRun: number }>();
      await performSync(runtime.ctx, { dataSourceId: t.dataSourceId, run: ds!.syncRun });
    },
  };
}

for (const [label, t] of tenants) {
  for (const [name, request] of probes(t)) await countRequest(`${label} ${name}`, request);
  const { start, finish } = syncStart(t);
  await countRequest(`${label} sync start`, start, finish);
}
server.close();
await runtime.shutdown();
await db.stop();

// ---- Timing: the same FerretDB data without its debug log (which dumps every reply and slows big ones)
db = await startFerretDb({ dataDir, database: 'relay_reads' });
// CPU time is the load-independent part of the timing: FerretDB's (its process under the launcher's
// shell, from /proc) and this process's (the server's handlers, and the client's small share).
const ferretCpuMs = () => processTreeCpuMs(db.process.pid);
runtime = await createRuntime({ config: configFor(db.uri), logger: createLogger('silent'), uri: db.uri, role: { api: true, worker: false } });
({ server, baseUrl } = await serve(runtime));
const lines: string[] = [];
const print = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
print(`bench/reads.ts: ${ROWS} rows, ${CONVERSATIONS} conversations, ${EVENTS} events, ${GATEWAY} gateway deliveries; ${machineLine()}; load average before timing ${os.loadavg()[0]!.toFixed(1)}`);
print('| Tenant | Request | commands | SQL reads (of them array probes) | documents returned | rows read by unsorted or Go-sorted reads | SQLite VM steps | pages touched | full scans | FerretDB CPU ms | Node CPU ms | p50 ms | p99 ms |');
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [label, t] of tenants) {
  for (const [name, request] of probes(t)) {
    await request();
    const [ferret, node] = [ferretCpuMs(), process.cpuUsage()];
    const { p50, p99 } = await timeRequest(request, REQUESTS);
    const nodeUsed = process.cpuUsage(node);
    const perRequest = (ms: number) => (ms / REQUESTS).toFixed(1);
    print(
      `| ${label} | ${name} | ${counted.get(`${label} ${name}`)} | ${perRequest(ferretCpuMs() - ferret)} | ` +
        `${perRequest((nodeUsed.user + nodeUsed.system) / 1000)} | ${p50.toFixed(1)} | ${p99.toFixed(1)} |`,
    );
  }
  const { start, finish } = syncStart(t);
  const ms: number[] = [];
  let [ferretUsed, nodeUsed] = [0, 0];
  for (let i = 0; i < REQUESTS; i++) {
    const [ferret, node] = [ferretCpuMs(), process.cpuUsage()];
    const started = performance.now();
    await start();
    ms.push(performance.now() - started);
    const used = process.cpuUsage(node);
    [ferretUsed, nodeUsed] = [ferretUsed + ferretCpuMs() - ferret, nodeUsed + (used.user + used.system) / 1000];
    await finish();
  }
  ms.sort((a, b) => a - b);
  print(
    `| ${label} | sync start | ${counted.get(`${label} sync start`)} | ${(ferretUsed / REQUESTS).toFixed(1)} | ${(nodeUsed / REQUESTS).toFixed(1)} | ` +
      `${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 99).toFixed(1)} |`,
  );
}
print(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

server.close();
sink.close();
await runtime.shutdown();
await db.stop();
if (process.argv.includes('--keep')) progress(`kept ${dir}`);
else fs.rmSync(dir, { recursive: true, force: true });
