// The embedded default database: FerretDB v1.24.2 on SQLite, installed with Go on first use.
// Used by `npm start` without MONGODB_URI, by the test harness and by CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const FERRETDB_VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';

export class EmbeddedDbUnavailable extends Error {}

function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'relay', 'bin');
}

export function ferretBinaryPath(): string {
  return path.join(cacheDir(), `ferretdb-${FERRETDB_VERSION}`);
}

// The _id index helper's source sits beside this file; its binary name carries a hash of that
// source, so a changed helper is rebuilt.
const ID_INDEX_SOURCE = fileURLToPath(new URL('./ferretdb-idindex/main.go', import.meta.url));

export function idIndexBinaryPath(): string {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(ID_INDEX_SOURCE)).digest('hex').slice(0, 12);
  return path.join(cacheDir(), `ferretdb-idindex-${FERRETDB_VERSION}-${hash}`);
}

function versionOf(binary: string): string | undefined {
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (out.status !== 0) return undefined;
  return /version:\s*(\S+)/.exec(out.stdout)?.[1];
}

function onPath(name: string): string | undefined {
  const out = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

function findGo(): string | undefined {
  return onPath('go') ?? (fs.existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/**
 * Copies FerretDB's module source into a temporary directory, writes the version file its build
 * expects, runs `build` there and removes the copy.
 */
function withFerretSource(go: string, build: (work: string) => void): void {
  const download = spawnSync(go, ['mod', 'download', '-json', `${MODULE}@${FERRETDB_VERSION}`], {
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (download.status !== 0) throw new EmbeddedDbUnavailable(`go mod download failed:\n${download.stdout}${download.stderr}`);
  const moduleDir = JSON.parse(download.stdout).Dir as string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-ferretdb-src-'));
  try {
    fs.cpSync(moduleDir, work, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', work]);
    fs.writeFileSync(path.join(work, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    build(work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function goBuild(go: string, work: string, pkg: string, out: string): void {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmpOut = `${out}.tmp-${process.pid}`;
  const build = spawnSync(go, ['build', '-trimpath', '-o', tmpOut, pkg], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0' },
  });
  if (build.status !== 0) throw new EmbeddedDbUnavailable(`building ${pkg} failed:\n${build.stderr}`);
  fs.renameSync(tmpOut, out);
}

export interface FerretBinaries {
  ferretdb: string;
  /** The _id index helper (ferretdb-idindex/main.go); absent only when a system FerretDB is used without Go. */
  idIndex?: string;
}

/**
 * Finds a FerretDB binary of the right version and the _id index helper, building them with Go
 * when missing. `go install …@v1.24.2` cannot be used as is: the module zip lacks
 * build/version/version.txt, so the binary panics at start. We copy the module source, write that
 * file and build; the helper is built in the same copy, against FerretDB's own go.mod.
 */
export function ensureFerretBinaries(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): FerretBinaries {
  const cached = ferretBinaryPath();
  const idIndex = idIndexBinaryPath();
  const haveIdIndex = fs.existsSync(idIndex);
  let ferretdb: string | undefined;
  if (fs.existsSync(cached) && versionOf(cached) === FERRETDB_VERSION) ferretdb = cached;
  else {
    const system = onPath('ferretdb');
    if (system && versionOf(system) === FERRETDB_VERSION) ferretdb = system;
  }
  if (ferretdb && haveIdIndex) return { ferretdb, idIndex };

  const go = findGo();
  if (!go) {
    if (ferretdb) {
      log('relay: Go not found, so FerretDB runs without the _id index helper (every _id lookup scans; docs/FERRETDB.md)');
      return { ferretdb };
    }
    throw new EmbeddedDbUnavailable(
      'No database configured: MONGODB_URI is unset and neither ferretdb nor Go is available to run the embedded default.\n' +
        'Options: `docker compose up` (MongoDB 7), or set MONGODB_URI=mongodb://host:27017/relay, or install Go so FerretDB can be built.',
    );
  }
  if (!ferretdb) log(`relay: installing FerretDB ${FERRETDB_VERSION} with Go (first run only, about a minute)…`);
  let helperBuilt = haveIdIndex;
  withFerretSource(go, (work) => {
    if (!ferretdb) {
      goBuild(go, work, './cmd/ferretdb', cached);
      ferretdb = cached;
      log(`relay: FerretDB installed at ${cached}`);
    }
    if (!haveIdIndex) {
      const dir = path.join(work, 'cmd', 'relay-idindex');
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(ID_INDEX_SOURCE, path.join(dir, 'main.go'));
      // The helper only makes lookups fast; FerretDB works without it.
      try {
        goBuild(go, work, './cmd/relay-idindex', idIndex);
        helperBuilt = true;
      } catch (err) {
        log(`relay: the _id index helper did not build, so FerretDB runs without it (every _id lookup scans): ${(err as Error).message}`);
      }
    }
  });
  return helperBuilt ? { ferretdb: ferretdb!, idIndex } : { ferretdb: ferretdb! };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function portAcceptsConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

export interface EmbeddedDb {
  uri: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startFerretDb(opts: { dataDir: string; port?: number; database?: string }): Promise<EmbeddedDb> {
  const binaries = ensureFerretBinaries();
  const port = opts.port ?? (await freePort());
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const logFile = fs.openSync(path.join(opts.dataDir, 'ferretdb.log'), 'a');
  const args = [
    '--handler=sqlite',
    // WAL (FerretDB's default) with synchronous=NORMAL: a commit no longer waits for an fsync, which
    // more than halved write latency here. A process crash loses nothing; a power cut may lose the
    // last commits. Production runs on MongoDB (docs/FERRETDB.md, "Durability of the embedded default").
    `--sqlite-url=file:${opts.dataDir}/?_pragma=synchronous(normal)`,
    `--listen-addr=127.0.0.1:${port}`,
    `--state-dir=${opts.dataDir}`,
    '--debug-addr=-',
    '--telemetry=disable',
    '--log-level=error',
  ];
  // A small shell watchdog stops FerretDB when this process dies without cleaning up
  // (SIGKILL, a killed test runner), so no orphan keeps the port or the SQLite files. It also runs
  // the _id index helper, which exits with FerretDB.
  // Both are gone before stop() resolves, so the data directory can be removed right after.
  const idIndex = binaries.idIndex
    ? `${shellQuote(binaries.idIndex)} -dir ${shellQuote(opts.dataDir)} -watch-pid $child & idx=$!; `
    : '';
  const watchdog =
    `"$@" & child=$!; ${idIndex}trap 'kill $child \${idx:-} 2>/dev/null; wait; exit 0' TERM INT; ` +
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1; done; ` +
    'kill $child 2>/dev/null; wait';
  const child = spawn('sh', ['-c', watchdog, 'ferretdb-watchdog', binaries.ferretdb, ...args], {
    stdio: ['ignore', logFile, logFile],
  });
  fs.closeSync(logFile);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 15_000;
  while (!(await portAcceptsConnections(port))) {
    if (exited) throw new EmbeddedDbUnavailable(`FerretDB exited at start; see ${opts.dataDir}/ferretdb.log`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new EmbeddedDbUnavailable(`FerretDB did not listen on port ${port} within 15 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { uri: `mongodb://127.0.0.1:${port}/${opts.database ?? 'relay'}`, port, process: child, stop };
}
