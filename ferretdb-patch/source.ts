// A patched FerretDB source tree: the upstream module from Go's module cache (or proxy), copied to
// a writable directory, with the version file its build expects and Relay's patch applied. The
// installer builds the binary from it (build.ts) and the patch's tests run in it (test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPatch, patchedModules } from './patch.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export const UPSTREAM = JSON.parse(fs.readFileSync(path.join(HERE, 'upstream.json'), 'utf8')) as { module: string; version: string };

/** Go on PATH, else where its tarball installs it. */
export function findGo(): string | undefined {
  const out = spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' });
  if (out.status === 0) return out.stdout.trim();
  return fs.existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined;
}

/**
 * Returns a new temporary directory holding the patched source; the caller removes it. The module
 * zip lacks build/version/version.txt, without which the binary panics at start.
 */
export function preparePatchedSource(go: string): string {
  const moduleDir = downloadModule(go, `${UPSTREAM.module}@${UPSTREAM.version}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-ferretdb-src-'));
  try {
    fs.cpSync(moduleDir, work, { recursive: true });
    // A patched dependency goes in the tree too; the patch's go.mod edit points FerretDB at it.
    for (const [dir, module] of Object.entries(patchedModules())) {
      fs.cpSync(downloadModule(go, module), path.join(work, dir), { recursive: true });
    }
    spawnSync('chmod', ['-R', 'u+w', work]);
    fs.writeFileSync(path.join(work, 'build', 'version', 'version.txt'), `${UPSTREAM.version}\n`);
    applyPatch(work);
    return work;
  } catch (err) {
    fs.rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

/** The directory of `module@version` in Go's module cache, downloaded first if need be. */
function downloadModule(go: string, moduleAtVersion: string): string {
  const download = spawnSync(go, ['mod', 'download', '-json', moduleAtVersion], {
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (download.status !== 0) throw new Error(`go mod download failed:\n${download.stdout}${download.stderr}`);
  return JSON.parse(download.stdout).Dir as string;
}
