// The patch's Go tests, with the race detector: `npm run test:ferretdb-patch` (CI runs it). Prepares
// a patched tree as the installer does and runs `go test -race -run Relay` in the packages that
// hold the patch's tests. FerretDB's own tests of those packages are left out: some check the
// index layout the patch changes on purpose. The race detector needs cgo, so a C compiler (gcc).
// Extra arguments go to `go test` (e.g. `-v`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { testedPackages } from './patch.ts';
import { findGo, preparePatchedSource, UPSTREAM } from './source.ts';

const go = findGo();
if (!go) throw new Error('Go is not installed');
const started = Date.now();
const work = preparePatchedSource(go);
try {
  // FerretDB's test helpers find the repository's root by its .git directory.
  fs.mkdirSync(path.join(work, '.git'));
  // -trimpath: the tree's temporary path stays out of the build cache's keys, so a second run
  // reuses the compiled packages.
  const args = ['test', '-race', '-trimpath', '-count=1', '-run', 'Relay', ...process.argv.slice(2), ...testedPackages()];
  process.stderr.write(`FerretDB ${UPSTREAM.version} with Relay's patch: go ${args.join(' ')}\n`);
  const run = spawnSync(go, args, { cwd: work, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '1' } });
  process.stderr.write(`go test finished in ${Math.round((Date.now() - started) / 1000)} s\n`);
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
