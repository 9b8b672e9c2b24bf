// The two admin delivery lists' first pages (or pages after 10,000) as this tree serves them and as
// another tree does (--before ROOT), call by call in one process (A B B A), so the machine's load
// drift lands on both (issue 17, session 35: their reads through the driver, db/find.ts). Each side
// is the service, the presenters and JSON.stringify, checked to show the same page. Node CPU
// (process.cpuUsage) and FerretDB CPU (thread schedstat) per call, wall p50/p90/p99.
// The other tree must load its own mongoose, driver, bson and prom-client (two model registries,
// two connections, two metric registries): copies of those four in ROOT/node_modules, every other
// entry a symlink to this tree's. Data: a dir seeded by `bench/lists.ts seed DIR`.
// --before-data DIR2: the other tree reads its own copy of the data (a second FerretDB), for a
// change of the stored shape; the pages must still be the same JSON. Each side's FerretDB CPU is
// its own FerretDB's.
//
//   node --import tsx bench/list-driver.ts DIR gateway|log --before ROOT [--before-data DIR2] [--calls 400] [--cursor]
import path from 'node:path';
import fs from 'node:fs';
import { flag, stringFlag } from './lib/args.ts';
import { interleave, listPageOf, type ListPage, type ListTarget } from './lib/listPages.ts';
const root = path.join(import.meta.dirname, '..');
const [dir, which] = process.argv.slice(2);
if (!dir || !['gateway', 'log'].includes(which!)) throw new Error('usage: bench/list-driver.ts DIR gateway|log --before ROOT [--calls 400] [--cursor]');
const before = path.resolve(stringFlag('before', ''));
const N = Number(flag('calls') ?? 400);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'relay_lists' });
const beforeData = stringFlag('before-data', '');
const beforeDb = beforeData ? await startFerretDb({ dataDir: path.join(path.resolve(beforeData), 'db'), database: 'relay_lists' }) : db;
const target = JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8')) as ListTarget;
const cursor = process.argv.includes('--cursor');

console.log(`${which}, ${cursor ? 'a page after 10,000' : 'first page'} of 100, A B B A, before ${before}${beforeData ? ` on ${beforeData}` : ''}`);
await interleave(
  {
    before: { call: await listPageOf(before, beforeDb.uri, which as ListPage, target, cursor), ferretPid: beforeDb.process.pid },
    after: { call: await listPageOf(root, db.uri, which as ListPage, target, cursor), ferretPid: db.process.pid },
  },
  N,
);
await db.stop();
if (beforeDb !== db) await beforeDb.stop();
process.exit(0);
