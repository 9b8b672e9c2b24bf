// What the public API's rows page of 100 costs by stage (issue 17), on a source of ~10,000 rows of
// ~2 KB: the page over HTTP (public auth included), then its reads one by one, the presenters and
// JSON.stringify. CPU from process.cpuUsage (this process: API and client) and FerretDB's threads
// (/proc schedstat, ns resolution); commands counted through the driver's command monitoring.
// `--ab`: instead, the page as the route read it before session 34 (the channel, then the source,
// then the page beside mongoose's `countDocuments`) against `rows.listRowsOf` now, A B B A call by call.
// Seeds DIR on first use (20 s).
//
//   node --import tsx bench/rows-page.ts DIR [--calls 300] [--ab] [--cursor]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { processThreadsCpuMs, stageTimer } from './lib/cpu.ts';
import { numberFlag } from './lib/args.ts';
import { seededText } from './lib/text.ts';
import { loadConfig } from '../src/config.ts';
import { startFerretDb } from '../src/db/ferretdb.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createRuntime } from '../src/runtime.ts';
import { createApp } from '../src/http/app.ts';
import { provisionTenant, authenticateChannel, getTeam } from '../src/platform/service.ts';
import { createDataSource, getDataSource } from '../src/datasources/service.ts';
import * as rows from '../src/datasources/rows.ts';
import { presentRowListItem } from '../src/datasources/presenters.ts';
import { DataSourceRowModel } from '../src/datasources/model.ts';
import { trusted } from '../src/db/connection.ts';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: bench/rows-page.ts DIR [--calls N] [--ab] [--cursor]');
const N = numberFlag('calls', 300);
const ROWS = 10_000;
fs.mkdirSync(dir, { recursive: true });
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_rows' });
const uri = `${db.uri}${db.uri.includes('?') ? '&' : '?'}monitorCommands=true`;
const config = loadConfig({ MONGODB_URI: uri, ADMIN_TOKEN: 'bench-rows-admin-token-0123456789', DATA_DIR: path.join(dir, 'data') });
const runtime = await createRuntime({ config, logger: createLogger('silent'), uri, role: { api: true, worker: false } });

const targetFile = path.join(dir, 'target.json');
if (!fs.existsSync(targetFile)) {
  const t0 = Date.now();
  const tenant = await provisionTenant({ plan: 'enterprise' });
  const ds = await createDataSource(runtime.ctx, { id: tenant.botId, teamId: tenant.teamId }, await getTeam(tenant.teamId));
  const { random, words } = seededText(7);
  for (let i = 0; i < ROWS; i += 500) {
    const batch = Array.from({ length: 500 }, (_, j) => {
      let content = `# Row ${i + j}\n\n`;
      while (content.length < 2048) content += `${words(8 + Math.floor(random() * 10))}. `;
      return { name: `Row ${i + j}`, content };
    });
    await rows.addRows(ds, batch, { now: new Date() });
  }
  fs.writeFileSync(targetFile, JSON.stringify({ ...tenant, dataSourceId: ds._id }));
  process.stderr.write(`seeded ${ROWS} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
const target = JSON.parse(fs.readFileSync(targetFile, 'utf8')) as { botId: string; channelId: string; secretKey: string; dataSourceId: string };


const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;
let commands = 0;
const client = mongoose.connection.getClient();
client.on('commandStarted', () => void commands++);

const post = (p: string, body: unknown) =>
  new Promise<number>((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/public/channels/${target.channelId}/2.0${p}`,
        headers: { 'x-api-secret-key': target.secretKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length)).on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject).end(data);
  });

const ds = await getDataSource(target.botId, target.dataSourceId);
const first = await rows.listRows(ds, { limit: 100 });
const middle = (await DataSourceRowModel.find({ dataSourceId: ds._id }, { _id: 1 }).sort({ _id: 1 }).skip(5000).limit(1).lean<Array<{ _id: string }>>())[0]!._id;
const cursor = process.argv.includes('--cursor') ? middle : null;
const page = { limit: 100, cursor };
const per = (ms: number, n: number) => (ms / n).toFixed(3);
process.stdout.write(`rows page of 100 (${cursor ? 'after row 5,000' : 'first'}), ${first.pagination.total} rows, ${N} calls, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);

if (!process.argv.includes('--ab')) {
  const stage = stageTimer(N, () => processThreadsCpuMs(db.process.pid), () => commands);

  const body = { success: true, dataSourceRows: first.items.map(presentRowListItem), pagination: first.pagination };
  const filter = { dataSourceId: ds._id };
  process.stdout.write('| stage | Node CPU ms | FerretDB CPU ms | commands |\n| --- | --- | --- | --- |\n');
  await stage('HTTP: a public route that fails validation (auth, no reads after it)', () => post('/data-sources/row/list', {}).catch(() => 0));
  await stage('HTTP: the page', () => post('/data-sources/row/list', { dataSourceId: ds._id, ...page }));
  await stage("  the channel (authenticateChannel)", () => authenticateChannel(target.channelId, target.secretKey));
  await stage('  the source (getDataSource)', () => getDataSource(target.botId, target.dataSourceId));
  await stage('  listRows (page ‖ count)', () => rows.listRows(ds, page));
  const query: Record<string, unknown> = cursor ? { ...filter, _id: { $gte: cursor } } : filter;
  await stage('  100 rows, _id and name (find, lean)', () => DataSourceRowModel.find(query, { _id: 1, name: 1 }).sort({ _id: 1 }).limit(101).batchSize(102).lean());
  await stage('  100 rows (driver)', () => DataSourceRowModel.collection.find(query, { projection: { _id: 1, name: 1 }, sort: { _id: 1 }, limit: 101, batchSize: 102 }).toArray());
  await stage('  the count (mongoose countDocuments)', () => DataSourceRowModel.countDocuments(filter));
  await stage("  the count (driver's countDocuments)", () => DataSourceRowModel.collection.countDocuments(filter));
  await stage('  the count (count command)', () => mongoose.connection.db!.command({ count: 'datasourcerows', query: filter }));
  await stage('presenters', () => first.items.map(presentRowListItem));
  await stage('JSON.stringify', () => JSON.stringify(body));
} else {
  // A: as the route read it before (three waits, countDocuments through mongoose).
  const before = async () => {
    await authenticateChannel(target.channelId, target.secretKey);
    const source = await getDataSource(target.botId, target.dataSourceId);
    const filter = { dataSourceId: source._id };
    const query = page.cursor ? { ...filter, _id: trusted({ $gte: page.cursor }) } : filter;
    const take = page.limit + (page.cursor ? 1 : 0);
    const [found, total] = await Promise.all([
      DataSourceRowModel.find(query, { _id: 1, name: 1 }).sort({ _id: 1 }).limit(take).batchSize(take + 1).lean<Array<{ _id: string }>>(),
      DataSourceRowModel.countDocuments(filter),
    ]);
    const items = page.cursor ? found.slice(1) : found;
    return { items, pagination: { total, last: items.length ? items[items.length - 1]!._id : null } };
  };
  const after = async () => {
    await authenticateChannel(target.channelId, target.secretKey);
    return rows.listRowsOf(target.botId, target.dataSourceId, page);
  };
  const a = JSON.stringify(await before());
  const b = JSON.stringify(await after());
  if (a !== b) throw new Error('A and B answer differently');
  const stats = { A: { node: 0, ferret: 0, cmds: 0, walls: [] as number[] }, B: { node: 0, ferret: 0, cmds: 0, walls: [] as number[] } };
  for (let i = 0; i < 40; i++) await (i % 2 ? after() : before());
  for (let i = 0; i < 2 * N; i++) {
    const which = [0, 3].includes(i % 4) ? 'A' : 'B';
    const [t0, node, ferret, c0] = [performance.now(), process.cpuUsage(), processThreadsCpuMs(db.process.pid), commands];
    await (which === 'A' ? before() : after());
    const used = process.cpuUsage(node);
    const s = stats[which];
    s.ferret += processThreadsCpuMs(db.process.pid) - ferret;
    s.node += (used.user + used.system) / 1000;
    s.cmds += commands - c0;
    s.walls.push(performance.now() - t0);
  }
  const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(2);
  process.stdout.write('| code | wall p50 | p90 | p99 | Node CPU ms | FerretDB CPU ms | commands |\n| --- | --- | --- | --- | --- | --- | --- |\n');
  for (const [k, s] of Object.entries(stats)) {
    process.stdout.write(`| ${k} | ${q(s.walls, 50)} | ${q(s.walls, 90)} | ${q(s.walls, 99)} | ${per(s.node, N)} | ${per(s.ferret, N)} | ${s.cmds / N} |\n`);
  }
  process.stdout.write(`load after ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
}
server.close();
await runtime.shutdown();
await db.stop();
process.exit(0);
