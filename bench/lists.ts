// The two admin delivery lists at the full size (issue 17): a hook's delivery log and the
// gateway's delivery list, counted and timed without the wall clock. Seeding 300,000 of each through
// the services takes most of an hour, so `seed` makes 200 of each through them (real fan-out, first
// attempts to a local sink, gateway intake processed with a rule) and copies those documents under
// new time-ordered ids up to --n: every field as the services write it, results and outcomes included.
//
//   node --import tsx bench/lists.ts seed DIR [--n 300000]
//   node --import tsx bench/lists.ts measure DIR [--code ROOT] [--requests 20] [--total-limit N]
//
// `measure` sends each probe once with FerretDB's SQL log on (statements, SQLite VM steps and pages
// through bench/sqlite-work, as bench/reads.ts does), then --requests times without it for FerretDB's
// CPU per request (/proc, 10 ms ticks) and this process's (the API handlers and the client).
// --code ROOT runs another tree's src/ (and so its FerretDB patch) on the same data, for a before
// and after: e.g. `git archive <commit> src bench | tar -x -C /tmp/before` with node_modules linked.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { processTreeCpuMs } from './lib/cpu.ts';
import { numberFlag, stringFlag } from './lib/args.ts';

type Doc = Record<string, unknown> & { _id: unknown };
const [phase, dir] = process.argv.slice(2);
if ((phase !== 'seed' && phase !== 'measure') || !dir) throw new Error('usage: bench/lists.ts seed|measure DIR [--n N] [--code ROOT] [--requests N]');
const root = path.resolve(stringFlag('code', path.join(import.meta.dirname, '..')));
const ADMIN_TOKEN = 'bench-lists-admin-token-0123456789';
const SECRET = 'bench-lists-gateway-secret';
const progress = (line: string) => process.stderr.write(`[lists ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const { loadConfig } = await import(`${root}/src/config.ts`);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { createLogger } = await import(`${root}/src/observability/logger.ts`);
const { createRuntime } = await import(`${root}/src/runtime.ts`);
const { createApp } = await import(`${root}/src/http/app.ts`);
const dataDir = path.join(dir, 'db');
const configFor = (uri: string) =>
  loadConfig({
    MONGODB_URI: uri,
    ADMIN_TOKEN,
    RETENTION_DAYS: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
    RULES_DIR: path.join(dir, 'rules'),
    DATA_DIR: path.join(dir, 'data'),
    JOB_PROCESS_EVERY_MS: '200',
    // The lists' cap (DELIVERY_LIST_TOTAL_LIMIT), to see what the count costs at another one.
    ...(process.argv.includes('--total-limit') ? { DELIVERY_LIST_TOTAL_LIMIT: stringFlag('total-limit', '') } : {}),
  });
type Runtime = Awaited<ReturnType<typeof createRuntime>>;
async function serve(runtime: Runtime) {
  const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}
const collection = (name: string) => mongoose.connection.db!.collection<Doc>(name);

async function seed(n: number): Promise<void> {
  if (fs.existsSync(path.join(dir!, 'target.json'))) throw new Error(`${dir} is seeded already`);
  const { writeBenchRule, drained } = await import(`${root}/bench/lib/gatewayRule.ts`);
  const { provisionTenant } = await import(`${root}/src/platform/service.ts`);
  const { createWebhook, setWebhookEnabled } = await import(`${root}/src/webhooks/service.ts`);
  const { signBody } = await import(`${root}/src/security/signature.ts`);
  const { timeOrderedId } = await import(`${root}/src/clock.ts`);
  fs.mkdirSync(dir!, { recursive: true });
  writeBenchRule(path.join(dir!, 'rules'));
  fs.writeFileSync(path.join(dir!, 'gateway.json'), JSON.stringify({ sources: { relay: { secrets: [SECRET] } } }));
  const sink = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const db = await startFerretDb({ dataDir, database: 'relay_lists' });
  const runtime: Runtime = await createRuntime({ config: configFor(db.uri), logger: createLogger('silent'), uri: db.uri });
  await runtime.startWorker();
  const { server, baseUrl } = await serve(runtime);
  const tenant = await provisionTenant({ plan: 'enterprise' });
  const url = `http://127.0.0.1:${(sink.address() as { port: number }).port}/hook`;
  const hookId = (await createWebhook(runtime.ctx, tenant.botId, { type: 'conversation.started', url })).webhook.id as string;
  await setWebhookEnabled(tenant.botId, hookId, true);
  for (let i = 0; i < 200; i++) {
    await runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { conversation: { id: randomUUID() } } });
    const body = JSON.stringify({ event: 'conversation.started', deliveryId: randomUUID(), timestamp: new Date().toISOString(), conversation: { id: randomUUID() } });
    const res = await fetch(`${baseUrl}/gateway/relay`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': signBody(body, SECRET) } });
    await res.arrayBuffer();
  }
  await drained(progress, 1000);
  const templates = await collection('webhookdeliveries').find({ webhookId: hookId }).toArray();
  const results = new Map((await collection('webhookdeliveryattemptresults').find({}).toArray()).map((r) => [r.deliveryId, r]));
  const received = await collection('gatewayDeliveries').find({}).toArray();
  const rules = new Map((await collection('gatewayRuleOutcomes').find({}).toArray()).map((r) => [r.delivery, r]));
  const actions = new Map((await collection('gatewayActionOutcomes').find({}).toArray()).map((r) => [r.delivery, r]));
  /** Copies `from` round-robin up to n documents, `copy` making each copy and its children. */
  const fill = async (from: Doc[], copy: (d: Doc, id: string) => Record<string, Doc[]>) => {
    for (let done = from.length; done < n; done += 1000) {
      const batches: Record<string, Doc[]> = {};
      for (let i = 0; i < Math.min(1000, n - done); i++) {
        for (const [name, docs] of Object.entries(copy(from[(done + i) % from.length]!, timeOrderedId()))) (batches[name] ??= []).push(...docs);
      }
      for (const [name, docs] of Object.entries(batches)) if (docs.length) await collection(name).insertMany(docs, { ordered: false });
      if (done % 50_000 < 1000) progress(`${Object.keys(batches)[0]}: ${done}`);
    }
  };
  await fill(templates, (d, id) => {
    const r = results.get(d.id);
    return { webhookdeliveries: [{ ...d, _id: id, id, eventId: randomUUID() }], webhookdeliveryattemptresults: r ? [{ ...r, _id: `${id}#0001`, deliveryId: id }] : [] };
  });
  await fill(received, (d, id) => {
    const [r, a] = [rules.get(d.id), actions.get(d.id)];
    const actionId = randomUUID();
    return {
      gatewayDeliveries: [{ ...d, _id: id, id, deliveryId: randomUUID() }],
      gatewayRuleOutcomes: r ? [{ ...r, _id: `${id}:${String(r.run)}:${String(r.rule)}`, delivery: id }] : [],
      // An `id` copy only where the tree that seeds stores one (before session 36).
      gatewayActionOutcomes: a ? [{ ...a, _id: actionId, ...('id' in a ? { id: actionId } : {}), delivery: id }] : [],
    };
  });
  fs.writeFileSync(path.join(dir!, 'target.json'), JSON.stringify({ n, botId: tenant.botId, hookId }));
  server.close();
  sink.close();
  await runtime.shutdown();
  await db.stop();
  progress('seeded');
}

async function measure(requests: number): Promise<void> {
  const target = JSON.parse(fs.readFileSync(path.join(dir!, 'target.json'), 'utf8')) as { n: number; botId: string; hookId: string };
  const log = `/bots/${target.botId}/webhooks/${target.hookId}/deliveries`;
  const cursors = { log: '', gateway: '' };
  const admin = async (baseUrl: string, p: string) => {
    const res = await fetch(`${baseUrl}/api/admin${p}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const body = (await res.json()) as { success: boolean; pagination?: { total: number; totalCapped?: boolean } };
    if (!body.success) throw new Error(`${p}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const probes = (baseUrl: string): Array<[string, () => ReturnType<typeof admin>]> => [
    ['webhook log, first page of 10 (default)', () => admin(baseUrl, log)],
    ['webhook log, middle page of 10', () => admin(baseUrl, `${log}?cursor=${cursors.log}`)],
    ['webhook log, first page of 100', () => admin(baseUrl, `${log}?limit=100`)],
    ['gateway list, first page of 10 (default)', () => admin(baseUrl, '/gateway/deliveries')],
    ['gateway list, middle page of 10', () => admin(baseUrl, `/gateway/deliveries?cursor=${cursors.gateway}`)],
    ['gateway list, first page of 100', () => admin(baseUrl, '/gateway/deliveries?limit=100')],
    ['gateway list, event filter, page of 10', () => admin(baseUrl, '/gateway/deliveries?event=conversation.started')],
  ];
  const workSource = path.join(import.meta.dirname, 'sqlite-work');
  const workHash = createHash('sha256').update(fs.readFileSync(path.join(workSource, 'main.go'))).update(fs.readFileSync(path.join(workSource, 'go.mod'))).digest('hex').slice(0, 12);
  const workTool = path.join(os.tmpdir(), `relay-sqlite-work-${workHash}`);
  if (!fs.existsSync(workTool)) execFileSync('go', ['build', '-o', workTool, '.'], { cwd: workSource, stdio: 'inherit' });
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  const work = (sql: string, args: unknown[], limit: number) => {
    let i = 0;
    const input = JSON.stringify({ sql: sql.replace(/\?/g, () => literal(args[i++])), limit });
    return JSON.parse(execFileSync(workTool, [path.join(dataDir, 'relay_lists.sqlite')], { input: `${input}\n`, encoding: 'utf8', maxBuffer: 1 << 26 })) as { steps: number; pages: number };
  };
  const counted = new Map<string, string>();

  // Counting: one request per probe with FerretDB's SQL log on.
  let db = await startFerretDb({ dataDir, database: 'relay_lists', logSql: true });
  let runtime: Runtime = await createRuntime({ config: configFor(db.uri), logger: createLogger('silent'), uri: db.uri, role: { api: true, worker: false } });
  let { server, baseUrl } = await serve(runtime);
  const middle = (name: string, filter: Record<string, string>) => collection(name).find(filter, { projection: { _id: 1 } }).sort({ _id: 1 }).skip(Math.floor(target.n / 2)).limit(1).next();
  cursors.log = String((await middle('webhookdeliveries', { webhookId: target.hookId }))!._id);
  cursors.gateway = String((await middle('gatewayDeliveries', {}))!._id);
  const sqlLog = path.join(dataDir, 'ferretdb.log');
  for (const [name, request] of probes(baseUrl)) {
    const answer = await request();
    await new Promise((r) => setTimeout(r, 200));
    const offset = fs.statSync(sqlLog).size;
    await request();
    await new Promise((r) => setTimeout(r, 300)); // FerretDB's log write
    let [statements, steps, pages, countSteps] = [0, 0, 0, 0];
    for (const line of fs.readFileSync(sqlLog, 'utf8').slice(offset).split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; args?: unknown[] };
      const sql = entry.msg?.startsWith('>>> ') ? entry.msg.slice(4).trim() : '';
      if (!/^SELECT/i.test(sql) || /sqlite_master|_ferretdb_collections/.test(sql)) continue;
      const w = work(sql, entry.args ?? [], /ORDER BY/.test(sql) ? 101 : 0);
      [statements, steps, pages] = [statements + 1, steps + w.steps, pages + w.pages];
      if (/COUNT\(\*\)/.test(sql)) countSteps += w.steps;
    }
    const total = `${answer.pagination!.total}${answer.pagination!.totalCapped ? ' (capped)' : ''}`;
    counted.set(name, `${total} | ${statements} | ${steps} | ${countSteps} | ${pages}`);
  }
  server.close();
  await runtime.shutdown();
  await db.stop();

  // Timing the CPU: the same requests with the log off.
  db = await startFerretDb({ dataDir, database: 'relay_lists' });
  const ferretCpuMs = () => processTreeCpuMs(db.process.pid);
  runtime = await createRuntime({ config: configFor(db.uri), logger: createLogger('silent'), uri: db.uri, role: { api: true, worker: false } });
  ({ server, baseUrl } = await serve(runtime));
  process.stdout.write(`bench/lists.ts measure: ${target.n} deliveries in each list, code ${root}, total limit ${stringFlag('total-limit', 'default')}; load average before ${os.loadavg()[0]!.toFixed(1)}\n`);
  process.stdout.write('| Request | total | SQL reads | SQLite VM steps | of them the count | pages | FerretDB CPU ms | Node CPU ms |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n');
  for (const [name, request] of probes(baseUrl)) {
    await request();
    const [ferret, node] = [ferretCpuMs(), process.cpuUsage()];
    for (let i = 0; i < requests; i++) await request();
    const used = process.cpuUsage(node);
    const perRequest = (ms: number) => (ms / requests).toFixed(1);
    process.stdout.write(`| ${name} | ${counted.get(name)} | ${perRequest(ferretCpuMs() - ferret)} | ${perRequest((used.user + used.system) / 1000)} |\n`);
  }
  process.stdout.write(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  server.close();
  await runtime.shutdown();
  await db.stop();
}

if (phase === 'seed') await seed(numberFlag('n', 300000));
else await measure(numberFlag('requests', 20));
process.exit(0);
