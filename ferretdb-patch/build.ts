// Builds the patched FerretDB binary: `node --import tsx ferretdb-patch/build.ts OUT`. Run by the
// installer (src/db/ferretdb.ts) when its cached binary is missing; writes OUT only on success.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findGo, preparePatchedSource } from './source.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: build.ts OUT');
const go = findGo();
if (!go) throw new Error('Go is not installed');
const work = preparePatchedSource(go);
try {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmpOut = `${out}.tmp-${process.pid}`;
  const build = spawnSync(go, ['build', '-trimpath', '-o', tmpOut, './cmd/ferretdb'], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0' },
  });
  if (build.status !== 0) {
    process.stderr.write(`building FerretDB failed:\n${build.stderr}`);
    process.exitCode = 1;
  } else {
    fs.renameSync(tmpOut, out);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
