// A row's get after a commit on a source of ROWS rows (issue 17): CPU (this process and FerretDB)
// and manifest bytes fetched by the first get after each commit, and the CPU of a commit that
// re-syncs 1 % of the rows. Knowledge is written by commitKnowledge with synthetic one-chunk rows
// (no chunking, no HTTP); the get is the service's getRow. Counted from the driver's command events.
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { BSON, type CommandStartedEvent, type CommandSucceededEvent } from 'mongodb';
import { startBenchDatabase, machineLine } from './lib/runtime.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/observability/logger.ts';
import { createRuntime } from '../src/runtime.ts';
import { timeOrderedId } from '../src/clock.ts';
import { contentHash } from '../src/datasources/content.ts';
import { addRows, getRow } from '../src/datasources/rows.ts';
import type { DataSource } from '../src/datasources/model.ts';
import { commitKnowledge, readCommitted, type RowChunks } from '../src/knowledge/store.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 3);
const CHANGED = Math.max(1, Math.round(ROWS / 100));

const db = await startBenchDatabase();
const uri = new URL(db.uri);
uri.searchParams.set('monitorCommands', 'true');
const config = loadConfig({ LOG_LEVEL: 'silent', MONGODB_URI: db.uri, DATA_DIR: path.join(os.tmpdir(), `relay-bench-${process.pid}`) });
const runtime = await createRuntime({ config, logger: createLogger('silent'), uri: uri.toString(), role: { api: true, worker: false } });
console.log(`manifest benchmark — ${machineLine()}`);

// Manifest documents (and their bytes) each find/getMore returns.
const collections = new Map<number, string>();
let [docs, bytes] = [0, 0];
const client = mongoose.connection.getClient();
client.on('commandStarted', (e: CommandStartedEvent) => {
  const name = e.commandName === 'find' ? e.command.find : e.commandName === 'getMore' ? e.command.collection : null;
  if (typeof name === 'string') collections.set(e.requestId, name);
});
client.on('commandSucceeded', (e: CommandSucceededEvent) => {
  const name = collections.get(e.requestId);
  collections.delete(e.requestId);
  if (name !== 'knowledgemanifests') return;
  const cursor = (e.reply as { cursor?: { firstBatch?: object[]; nextBatch?: object[] } }).cursor;
  for (const doc of cursor?.firstBatch ?? cursor?.nextBatch ?? []) {
    docs++;
    bytes += BSON.calculateObjectSize(doc);
  }
});

/** CPU of this process and of FerretDB, and manifest documents fetched, while `fn` runs. */
async function measured<T>(fn: () => Promise<T>) {
  const [cpu, dbCpu, d0, b0] = [process.cpuUsage(), db.cpuMs(), docs, bytes];
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, nodeMs: (used.user + used.system) / 1000, dbMs: db.cpuMs() - dbCpu, docs: docs - d0, bytes: bytes - b0 };
}
const line = (m: { nodeMs: number; dbMs: number; docs: number; bytes: number }) =>
  `node ${m.nodeMs.toFixed(1)} ms CPU, FerretDB ${m.dbMs} ms CPU, ${m.docs} manifest documents, ${(m.bytes / 1024).toFixed(1)} KiB`;

const dataSourceId = `bench-manifest-${process.pid}`;
const ds = { _id: dataSourceId, state: 'synced' } as DataSource;
const rowIds = Array.from({ length: ROWS }, () => timeOrderedId());
const group = (rowId: string, version: number): RowChunks => {
  const content = `row ${rowId} version ${version}`;
  return { rowId, hash: contentHash(content), chunks: [{ heading: null, text: content, tokens: 8 }] };
};
// The row the gets read: its meta and content stored as the service stores them.
const probe = rowIds[0]!;
await addRows(ds, [{ name: 'probe.md', content: `row ${probe} version 0` }], { now: new Date(), newRowId: () => probe });

const seeded = await measured(() =>
  commitKnowledge({ botId: 'bench', dataSourceId, run: 1, previous: { run: 0, rows: {}, packs: {} }, processed: rowIds.map((id) => group(id, 0)), liveRowIds: rowIds, now: new Date() }),
);
console.log(`seed commit, ${ROWS} rows: ${line(seeded)}`);
for (let run = 2; run < 2 + COMMITS; run++) {
  const read = await measured(() => readCommitted(dataSourceId));
  const previous = read.value;
  // 1 % of the rows, never the probe, so its state stays `synced`.
  const changed = Array.from({ length: CHANGED }, (_, i) => group(rowIds[1 + ((i * 97 + run * 13) % (ROWS - 1))]!, run));
  const commit = await measured(() => commitKnowledge({ botId: 'bench', dataSourceId, run, previous, processed: changed, liveRowIds: rowIds, now: new Date() }));
  const first = await measured(() => getRow(ds, probe));
  const second = await measured(() => getRow(ds, probe));
  if (first.value.state !== 'synced') throw new Error(`probe row is ${first.value.state}`);
  console.log(`run ${run}: the sync's whole-manifest read before it: ${line(read)}`);
  console.log(`run ${run}: commit of ${CHANGED} changed rows: ${line(commit)}`);
  console.log(`run ${run}: first get after it: ${line(first)}`);
  console.log(`run ${run}: second get: ${line(second)}`);
}
await runtime.shutdown();
await db.close();
