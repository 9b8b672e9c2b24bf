// FerretDB's CPU for the admin delivery lists' pages with the pushdown's probe answers kept
// (relay_probe_cache.go) and asked of SQLite every time (RELAY_FERRETDB_PROBE_CACHE=off): two
// FerretDBs of this build on two copies of one seeded dir, each serving one side, call by call in
// one process (A B B A) so the machine's load drift lands on both (issue 17, session 36). Each side
// is the service, the presenters and JSON.stringify, checked to show the same page. FerretDB CPU
// per call (thread schedstat) of the side's own FerretDB, Node CPU and wall p50/p99.
// Each side loads its own mongoose, driver, bson and prom-client (one default connection each), so
// the second side runs another tree: --other ROOT, a copy of this tree's src/ whose node_modules
// holds copies of those four and links to every other entry (as bench/list-driver.ts's --before).
// Data: a dir seeded by `bench/lists.ts seed DIR`; its db/ is copied to DIR-on and DIR-off.
//
// --same: the cache on for both sides (an A/A control of the two trees and processes).
//
//   node --import tsx bench/probe-cache.ts DIR gateway|log --other ROOT [--calls 400] [--cursor] [--same]
import path from 'node:path';
import fs from 'node:fs';
import { flag, stringFlag } from './lib/args.ts';
import { interleave, listPageOf, type ListPage, type ListTarget } from './lib/listPages.ts';
const root = path.join(import.meta.dirname, '..');
const [dir, which] = process.argv.slice(2);
if (!dir || !['gateway', 'log'].includes(which!)) throw new Error('usage: bench/probe-cache.ts DIR gateway|log --other ROOT [--calls 400] [--cursor]');
const other = path.resolve(stringFlag('other', ''));
const N = Number(flag('calls') ?? 400);
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const target = JSON.parse(fs.readFileSync(path.join(dir, 'target.json'), 'utf8')) as ListTarget;
const cursor = process.argv.includes('--cursor');

function copyOf(suffix: string): string {
  const to = `${dir}-${suffix}`;
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(path.join(dir, 'db'), path.join(to, 'db'), { recursive: true });
  return to;
}
const dbs = {
  on: await startFerretDb({ dataDir: path.join(copyOf('on'), 'db'), database: 'relay_lists' }),
  off: await startFerretDb({ dataDir: path.join(copyOf('off'), 'db'), database: 'relay_lists', probeCache: process.argv.includes('--same') }),
};

console.log(`${which}, ${cursor ? 'a page after 10,000' : 'first page'} of 100, A B B A (off: probe cache ${process.argv.includes('--same') ? 'ON (--same)' : 'off'}, tree ${other}; on: this tree)`);
await interleave(
  {
    off: { call: await listPageOf(other, dbs.off.uri, which as ListPage, target, cursor), ferretPid: dbs.off.process.pid },
    on: { call: await listPageOf(root, dbs.on.uri, which as ListPage, target, cursor), ferretPid: dbs.on.process.pid },
  },
  N,
);
await Promise.all([dbs.on.stop(), dbs.off.stop()]);
process.exit(0);
