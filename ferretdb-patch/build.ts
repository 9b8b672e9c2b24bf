// Builds the patched FerretDB binary: `node --import tsx ferretdb-patch/build.ts OUT`. Run by the
// installer (src/db/ferretdb.ts) when its cached binary is missing; writes OUT only on success.
// A first build compiles SQLite and takes minutes, so each step is named and, while Go compiles,
// the packages done and the time taken are printed every 10 s on stderr.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findGo, preparePatchedSource } from './source.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: build.ts OUT');
const go = findGo();
if (!go) throw new Error('Go is not installed');

const started = Date.now();
const elapsed = () => {
  const s = Math.round((Date.now() - started) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
};
const say = (line: string) => process.stderr.write(`relay: FerretDB build: ${line}\n`);

say('step 1/2, downloading and patching the source (go mod download)');
const work = preparePatchedSource(go);
try {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmpOut = `${out}.tmp-${process.pid}`;
  say(`step 2/2, compiling (go build), ${elapsed()} so far`);
  // -v names each package as it is compiled: counted for the progress line, kept for an error.
  const child = spawn(go, ['build', '-v', '-trimpath', '-o', tmpOut, './cmd/ferretdb'], {
    cwd: work,
    env: { ...process.env, CGO_ENABLED: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let packages = 0;
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output = (output + chunk).slice(-64 * 1024);
    packages += chunk.split('\n').filter((line) => /^[\w.-]+(\/[\w.@-]+)+$/.test(line.trim())).length;
  });
  const tick = setInterval(() => say(`step 2/2, compiling: ${packages} packages, ${elapsed()} so far`), 10_000);
  const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  clearInterval(tick);
  if (code !== 0) {
    process.stderr.write(`building FerretDB failed:\n${output.split('\n').filter((l) => !/^[\w.-]+(\/[\w.@-]+)+$/.test(l.trim())).join('\n')}\n`);
    process.exitCode = 1;
  } else {
    fs.renameSync(tmpOut, out);
    say(`done in ${elapsed()}`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
