// What the patch's maintained counts (src/db/ferretdb-patch/relay_counts.go) cost and save,
// counted in FerretDB's CPU (/proc, 10 ms ticks) so the machine's load cannot move it: the same
// writes and counts on two fresh embedded FerretDBs, one keeping the rows index's counts and one
// not. Row-shaped documents in one collection, one tenant holding most of them.
//
//   node --import tsx bench/counts.ts [--rows 30000] [--counts 50] [--updates 2000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { COUNTED_INDEXES, startFerretDb } from '../src/db/ferretdb.ts';
import { processTreeCpuMs } from './lib/cpu.ts';
import { machineLine } from './lib/runtime.ts';
import { numberFlag } from './lib/args.ts';

const ROWS = numberFlag('rows', 30000);
const COUNTS = numberFlag('counts', 50);
const UPDATES = numberFlag('updates', 2000);

async function measure(counted: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-counts-'));
  const db = await startFerretDb({ dataDir: dir, database: 'counts', counted });
  const client = await MongoClient.connect(db.uri);
  const cpu = () => processTreeCpuMs(db.process.pid);
  try {
    const rows = client.db('counts').collection<{ _id: string; [field: string]: unknown }>('datasourcerows');
    await rows.createIndex({ dataSourceId: 1, _id: 1 });
    const big = randomUUID();
    const ids: string[] = [];
    let at = cpu();
    for (let b = 0; b < ROWS / 100; b++) {
      const batch = Array.from({ length: 100 }, (_, i) => {
        const id = randomUUID();
        ids.push(id);
        const n = b * 100 + i;
        // One row in ten belongs to other tenants, so the big tenant's range is not the whole index.
        return { _id: id, dataSourceId: n % 10 ? big : randomUUID(), name: `item-${n}.md`, contentHash: randomUUID(), bytes: 2000, createdAt: new Date(), lastModified: new Date() };
      });
      await rows.insertMany(batch);
    }
    const insertMs = (cpu() - at) / ROWS;
    at = cpu();
    for (let i = 0; i < UPDATES; i++) await rows.updateOne({ _id: ids[i * 7 % ids.length] }, { $set: { name: `renamed-${i}.md` } });
    const updateMs = (cpu() - at) / UPDATES;
    let total = 0;
    at = cpu();
    for (let i = 0; i < COUNTS; i++) total = await rows.countDocuments({ dataSourceId: big });
    const countMs = (cpu() - at) / COUNTS;
    at = cpu();
    await rows.deleteMany({ _id: { $in: ids.slice(0, 1000) } });
    const deleteMs = (cpu() - at) / 1000;
    return { insertMs, updateMs, countMs, deleteMs, total };
  } finally {
    await client.close();
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`bench/counts.ts: ${ROWS} rows (90 % one tenant's), ${UPDATES} updates, ${COUNTS} counts; ${machineLine()}; load average ${os.loadavg()[0]!.toFixed(1)}`);
console.log('| Counts kept | FerretDB CPU ms per inserted row (batches of 100) | per update by _id | per countDocuments of the tenant | per deleted row | total counted |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [label, counted] of [['no', []], ['yes', COUNTED_INDEXES]] as const) {
  const r = await measure([...counted]);
  console.log(`| ${label} | ${r.insertMs.toFixed(3)} | ${r.updateMs.toFixed(3)} | ${r.countMs.toFixed(2)} | ${r.deleteMs.toFixed(3)} | ${r.total} |`);
}
console.log(`load average after: ${os.loadavg()[0]!.toFixed(1)}`);
