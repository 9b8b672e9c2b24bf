// The sync start (issue 17: < 50 ms) of a large source right after a share of its rows were edited,
// as bench/scale.ts's re-sync starts it: what the start sends to the database (commands in order,
// with the moment each was sent, and the bytes of each reply), the CPU it costs (this process, which
// serves the API, and FerretDB's threads) and its wall time, over many samples. Seeds one source
// through the API into DIR once (100,000 rows of ~2 KB take a few minutes, its first full sync
// included) and reuses it, so two code trees can be compared on the same data, in turns.
//
//   node --expose-gc --import tsx bench/syncstart.ts --data-dir DIR [--rows 100000] [--samples 20] [--edit 0.01]
//
// Each sample edits --edit of the rows (in requests of 100, as bench/scale.ts does), times the start,
// then runs the sync to its end in this process, untimed (the runtime has no worker). --edit 0 times
// the start of a source with nothing changed.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { BSON } from 'mongodb';
import { loadConfig } from '../src/config.ts';
import { startFerretDb } from '../src/db/ferretdb.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createRuntime } from '../src/runtime.ts';
import { createApp } from '../src/http/app.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createRelayClient } from '../src/client/index.ts';
import { mapLimit } from '../src/datasources/rows.ts';
import { DataSourceModel } from '../src/datasources/model.ts';
import { performSync } from '../src/datasources/sync.job.ts';
import { processThreadsCpuMs } from './lib/cpu.ts';
import { percentile } from './lib/load.ts';
import { markdown } from './lib/scaleTenant.ts';
import { flag, numberFlag } from './lib/args.ts';

const ROWS = numberFlag('rows', 100_000);
const SAMPLES = numberFlag('samples', 20);
const EDIT = numberFlag('edit', 0.01);
const dir = path.resolve(flag('data-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-syncstart-')));
const progress = (line: string) => process.stderr.write(`[syncstart ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Seed {
  channelId: string;
  secretKey: string;
  dataSourceId: string;
  rowIds: string[];
  edits: number;
}
const seedFile = path.join(dir, 'seed.json');
fs.mkdirSync(dir, { recursive: true });
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_syncstart' });
const config = loadConfig({ MONGODB_URI: db.uri, ADMIN_TOKEN: 'bench-syncstart-admin-token-0123456', RETENTION_DAYS: '0', DATA_DIR: path.join(dir, 'data') });
const runtime = await createRuntime({ config, logger: createLogger('silent'), uri: `${db.uri}?monitorCommands=true`, role: { api: true, worker: false } });
const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const finish = async (dataSourceId: string) => {
  const ds = await DataSourceModel.findById(dataSourceId, { syncRun: 1 }).lean<{ syncRun: number }>();
  const outcome = await performSync(runtime.ctx, { dataSourceId, run: ds!.syncRun });
  if (outcome !== 'done') throw new Error(`sync ended ${outcome}`);
};

let seed: Seed;
if (fs.existsSync(seedFile)) seed = JSON.parse(fs.readFileSync(seedFile, 'utf8')) as Seed;
else {
  progress(`seeding ${ROWS} rows into ${dir}`);
  const t = await provisionTenant({ plan: 'enterprise' });
  const api = createRelayClient({ baseUrl, channelId: t.channelId, secretKey: t.secretKey, timeoutMs: 600_000 });
  const dataSourceId = (await api.dataSources.create()).id;
  const batches = Array.from({ length: Math.ceil(ROWS / 100) }, (_, b) =>
    Array.from({ length: Math.min(100, ROWS - b * 100) }, (_, i) => ({ name: `item-${b * 100 + i}.md`, content: markdown(b * 100 + i) })),
  );
  await mapLimit(batches, 4, (batch) => api.rows.add(dataSourceId, batch));
  const rowIds: string[] = [];
  for await (const row of api.rows.iterate(dataSourceId, { pageSize: 100 })) rowIds.push(row.id);
  progress('rows added; first full sync');
  await api.dataSources.sync(dataSourceId);
  await finish(dataSourceId);
  seed = { channelId: t.channelId, secretKey: t.secretKey, dataSourceId, rowIds, edits: 0 };
  fs.writeFileSync(seedFile, JSON.stringify(seed));
  progress('seeded');
}
const api = createRelayClient({ baseUrl, channelId: seed.channelId, secretKey: seed.secretKey, timeoutMs: 600_000 });

interface Sent {
  name: string;
  at: number;
  requestId: number;
}
const sent: Sent[] = [];
const replies = new Map<number, { reply: unknown; ms: number }>();
let t0 = 0;
const client = mongoose.connection.getClient();
client.on('commandStarted', (e) => {
  const target = e.command[e.commandName];
  sent.push({ name: `${e.commandName}${typeof target === 'string' ? ` ${target}` : ''}`, at: performance.now() - t0, requestId: e.requestId });
});
client.on('commandSucceeded', (e) => replies.set(e.requestId, { reply: e.reply, ms: e.duration }));

const ferretPid = db.process.pid;
const walls: number[] = [];
let [nodeCpu, ferretCpu] = [0, 0];
let shown = '';
// Sample 0 is a warm-up, not counted: a fresh process's first start runs its code cold.
for (let s = -1; s < SAMPLES; s++) {
  if (EDIT > 0) {
    const k = seed.edits++;
    const every = Math.round(1 / EDIT);
    const edited = seed.rowIds
      .filter((_, i) => i % every === k % every)
      .map((id, i) => ({ id, name: `edited-${k}-${i}.md`, content: `${markdown(k * 1_000_000 + i)}\n\nEdited ${k}` }));
    for (let i = 0; i < edited.length; i += 100) await api.rows.update(seed.dataSourceId, edited.slice(i, i + 100));
  }
  // The untimed sync before left garbage (a 100,000-row manifest): collected here, not in the start.
  // FerretDB's own work after that sync (WAL checkpoint, its GC) settles in the pause too.
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  sent.length = 0;
  replies.clear();
  const [ferret, node] = [processThreadsCpuMs(ferretPid), process.cpuUsage()];
  t0 = performance.now();
  await api.dataSources.sync(seed.dataSourceId);
  const wall = performance.now() - t0;
  const used = process.cpuUsage(node);
  const ferretUsed = processThreadsCpuMs(ferretPid) - ferret;
  if (s >= 0) {
    walls.push(wall);
    nodeCpu += (used.user + used.system) / 1000;
    ferretCpu += ferretUsed;
  }
  if (s === SAMPLES - 1) {
    shown = sent
      .map((c) => {
        const r = replies.get(c.requestId);
        return `    +${c.at.toFixed(1)} ms ${c.name}: ${r ? `${BSON.calculateObjectSize(r.reply as BSON.Document)} bytes back in ${r.ms.toFixed(1)} ms` : 'no reply'}`;
      })
      .join('\n');
  }
  await finish(seed.dataSourceId);
}
fs.writeFileSync(seedFile, JSON.stringify(seed));
const sorted = [...walls].sort((a, b) => a - b);
const f = (x: number) => x.toFixed(1);
process.stdout.write(
  `sync start, ${ROWS} rows, ${EDIT * 100} % edited before each, ${SAMPLES} samples; load ${os.loadavg()[0]!.toFixed(2)}\n` +
    `  CPU a start: Node ${f(nodeCpu / SAMPLES)} ms, FerretDB ${f(ferretCpu / SAMPLES)} ms; wall p50 ${f(percentile(sorted, 50))} p90 ${f(percentile(sorted, 90))} max ${f(sorted.at(-1)!)} ms\n` +
    `  walls: ${walls.map(f).join(' ')}\n  the last start's commands (sent at, since the request):\n${shown}\n`,
);
server.close();
await runtime.shutdown();
await db.stop();
process.exit(0);
