// What the public conversations page of 100 (and the inbox and the messages page beside it) costs
// by stage (issue 17), for a small tenant of 5 conversations beside a big one of `--big`
// conversations of 10 messages, or alone (`--big 0`): is any of it proportional to the other
// tenant's data? CPU from process.cpuUsage (this process: API and client) and FerretDB's threads
// (/proc schedstat, ns resolution); commands counted through the driver's command monitoring.
// Seeds DIR on first use (the big tenant's documents through the driver, in batches).
//
// `--ab`: instead, the page's find through mongoose (before session 35) against listConversations
// now (the driver's find for plain string filters), A B B A call by call, same answer checked.
//
//   node --import tsx bench/conv-page.ts DIR [--big 50000] [--calls 300] [--tenant small|big] [--ab]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { processThreadsCpuMs, stageTimer } from './lib/cpu.ts';
import { numberFlag, stringFlag } from './lib/args.ts';
import { seededText } from './lib/text.ts';
import { loadConfig } from '../src/config.ts';
import { startFerretDb } from '../src/db/ferretdb.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createRuntime } from '../src/runtime.ts';
import { createApp } from '../src/http/app.ts';
import { provisionTenant, authenticateChannel } from '../src/platform/service.ts';
import { timeOrderedId } from '../src/clock.ts';
import { listConversations, listMessages } from '../src/chat/service.ts';
import { presentConversation } from '../src/chat/presenters.ts';
import { ConversationModel, TranscriptModel } from '../src/chat/model.ts';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: bench/conv-page.ts DIR [--big N] [--calls N] [--tenant small|big]');
const N = numberFlag('calls', 300);
const BIG = numberFlag('big', 50_000);
const which = stringFlag('tenant', 'small');
fs.mkdirSync(dir, { recursive: true });
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_conv' });
const uri = `${db.uri}${db.uri.includes('?') ? '&' : '?'}monitorCommands=true`;
const ADMIN_TOKEN = 'bench-conv-admin-token-0123456789';
const config = loadConfig({ MONGODB_URI: uri, ADMIN_TOKEN, DATA_DIR: path.join(dir, 'data') });
const runtime = await createRuntime({ config, logger: createLogger('silent'), uri, role: { api: true, worker: false } });

interface Tenant {
  botId: string;
  teamId: string;
  channelId: string;
  secretKey: string;
  conversationId: string;
}
const { words } = seededText(11);
/** `count` conversations of 10 messages, written as startConversation and recordMessages store them. */
async function seedConversations(count: number): Promise<Tenant> {
  const t = await provisionTenant({ plan: 'enterprise' });
  let middle = '';
  for (let i = 0; i < count; i += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - i) }, () => timeOrderedId());
    if (i <= count / 2 && count / 2 < i + ids.length) middle = ids[Math.floor(count / 2) - i]!;
    const now = new Date();
    await TranscriptModel.collection.insertMany(
      ids.map((id) => ({
        _id: id,
        botId: t.botId,
        messages: Array.from({ length: 10 }, (_, m) => ({ id: timeOrderedId(), role: m % 2 ? 'assistant' : 'user', message: words(12), createdAt: now })),
      })) as never,
    );
    await ConversationModel.collection.insertMany(
      ids.map((id) => ({ _id: id, id, botId: t.botId, teamId: t.teamId, channelId: t.channelId, userData: {}, initialMessage: null, state: 'Open', userEmail: null, agent: null, createdAt: now })) as never,
    );
  }
  return { ...t, conversationId: middle };
}

const targetFile = path.join(dir, 'target.json');
if (!fs.existsSync(targetFile)) {
  const t0 = Date.now();
  const big = BIG ? await seedConversations(BIG) : null;
  const small = await seedConversations(5);
  fs.writeFileSync(targetFile, JSON.stringify({ big, small, bigCount: BIG }));
  process.stderr.write(`seeded ${BIG} + 5 conversations in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
const targets = JSON.parse(fs.readFileSync(targetFile, 'utf8')) as { big: Tenant | null; small: Tenant; bigCount?: number };
const target = which === 'big' ? targets.big! : targets.small;

const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;
let commands = 0;
const client = mongoose.connection.getClient();
client.on('commandStarted', () => void commands++);

const request = (method: 'GET' | 'POST', p: string, body?: unknown) =>
  new Promise<number>((resolve, reject) => {
    const data = body === undefined ? '' : JSON.stringify(body);
    const admin = p.startsWith('/api/admin');
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: admin ? p : `/api/public/channels/${target.channelId}/2.0${p}`,
        headers: {
          ...(admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : { 'x-api-secret-key': target.secretKey }),
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length)).on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode} ${p}`))));
      },
    );
    req.on('error', reject).end(data);
  });

const page = { limit: 100, cursor: null };
const first = await listConversations(target.botId, page);
const per = (ms: number, n: number) => (ms / n).toFixed(3);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
process.stdout.write(
  `${which} tenant (${first.pagination.total} conversations) on an instance of ${targets.big ? `${targets.bigCount ?? BIG} + 5` : 'its 5 alone'}, ${N} calls, load ${load()}, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB\n`,
);
const stage = stageTimer(N, () => processThreadsCpuMs(db.process.pid), () => commands);
const filter = { botId: target.botId };
const body = { success: true, conversations: first.items.map(presentConversation), pagination: first.pagination };
if (process.argv.includes('--ab')) {
  // A: the page's find through mongoose, as before session 35; B: listConversations now. A B B A.
  const before = async () => {
    const [items, total] = await Promise.all([
      ConversationModel.find(filter).sort({ _id: 1 }).limit(100).batchSize(101).lean<Array<{ _id: string }>>(),
      mongoose.connection.db!.command({ count: 'conversations', query: filter }).then((r) => Number(r.n)),
    ]);
    return { items, pagination: { total, last: items.length ? items[items.length - 1]!._id : null } };
  };
  const after = () => listConversations(target.botId, page);
  if (JSON.stringify(await before()) !== JSON.stringify(await after())) throw new Error('A and B answer differently');
  const stats = { A: { node: 0, ferret: 0, walls: [] as number[] }, B: { node: 0, ferret: 0, walls: [] as number[] } };
  for (let i = 0; i < 40; i++) await (i % 2 ? after() : before());
  for (let i = 0; i < 2 * N; i++) {
    const side = [0, 3].includes(i % 4) ? 'A' : 'B';
    const [t0, node, ferret] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(db.process.pid)];
    await (side === 'A' ? before() : after());
    const used = process.cpuUsage(node);
    stats[side].ferret += processThreadsCpuMs(db.process.pid) - ferret;
    stats[side].node += (used.user + used.system) / 1000;
    stats[side].walls.push(performance.now() - t0);
  }
  const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(2);
  process.stdout.write('| code | wall p50 | p90 | Node CPU ms | FerretDB CPU ms |\n| --- | --- | --- | --- | --- |\n');
  for (const [k, st] of Object.entries(stats)) process.stdout.write(`| ${k} | ${q(st.walls, 50)} | ${q(st.walls, 90)} | ${per(st.node, N)} | ${per(st.ferret, N)} |\n`);
  process.stdout.write(`load after ${load()}\n`);
  server.close();
  await runtime.shutdown();
  await db.stop();
  process.exit(0);
}
process.stdout.write('| stage | Node CPU ms | FerretDB CPU ms | commands |\n| --- | --- | --- | --- |\n');
await stage('HTTP: a public route that fails validation (auth, no reads after it)', () => request('POST', '/conversations', { limit: 0 }).catch(() => 0));
await stage('HTTP: the conversations page', () => request('POST', '/conversations', page));
await stage('  the channel (authenticateChannel)', () => authenticateChannel(target.channelId, target.secretKey));
await stage('  listConversations (page ‖ count)', () => listConversations(target.botId, page));
await stage('  100 conversations (find, lean)', () => ConversationModel.find(filter).sort({ _id: 1 }).limit(100).batchSize(101).lean());
await stage('  100 conversations (driver find)', () => ConversationModel.collection.find(filter, { sort: { _id: 1 }, limit: 100, batchSize: 101 }).toArray());
await stage('  100 conversations (driver find, _id ≥ "")', () => ConversationModel.collection.find({ ...filter, _id: { $gte: '' } } as Record<string, unknown>, { sort: { _id: 1 }, limit: 100, batchSize: 101 }).toArray());
await stage('  the count (count command)', () => mongoose.connection.db!.command({ count: 'conversations', query: filter }));
await stage('  presenters', () => first.items.map(presentConversation));
await stage('  JSON.stringify', () => JSON.stringify(body));
await stage('HTTP: the inbox (admin, Open)', () => request('GET', `/api/admin/bots/${target.botId}/conversations?state=Open&limit=100`));
await stage('HTTP: the messages page', () => request('POST', '/messages', { conversationId: target.conversationId, limit: 100 }));
await stage('  listMessages', () => listMessages(target.botId, target.conversationId, page));
process.stdout.write(`load after ${load()}\n`);
server.close();
await runtime.shutdown();
await db.stop();
process.exit(0);
