// The embedded default database: FerretDB v1.24.2 on SQLite, installed with Go on first use.
// Used by `npm start` without MONGODB_URI, by the test harness and by CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

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

function versionOf(binary: string): string | undefined {
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (out.status !== 0) return undefined;
  return /version:\s*(\S+)/.exec(out.stdout)?.[1];
}

function onPath(name: string): string | undefined {
  const out = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

/**
 * Finds a FerretDB binary of the right version, building it with Go when missing.
 * `go install …@v1.24.2` cannot be used as is: the module zip lacks build/version/version.txt,
 * so the binary panics at start. We copy the module source, write that file and build.
 */
export function ensureFerretBinary(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  const cached = ferretBinaryPath();
  if (fs.existsSync(cached) && versionOf(cached) === FERRETDB_VERSION) return cached;
  const system = onPath('ferretdb');
  if (system && versionOf(system) === FERRETDB_VERSION) return system;

  const go = onPath('go') ?? (fs.existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go) {
    throw new EmbeddedDbUnavailable(
      'No database configured: MONGODB_URI is unset and neither ferretdb nor Go is available to run the embedded default.\n' +
        'Options: `docker compose up` (MongoDB 7), or set MONGODB_URI=mongodb://host:27017/relay, or install Go so FerretDB can be built.',
    );
  }
  log(`relay: installing FerretDB ${FERRETDB_VERSION} with Go (first run only, about a minute)…`);
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
    fs.mkdirSync(cacheDir(), { recursive: true });
    const tmpOut = `${cached}.tmp-${process.pid}`;
    const build = spawnSync(go, ['build', '-trimpath', '-o', tmpOut, './cmd/ferretdb'], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    if (build.status !== 0) throw new EmbeddedDbUnavailable(`building FerretDB failed:\n${build.stderr}`);
    fs.renameSync(tmpOut, cached);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  log(`relay: FerretDB installed at ${cached}`);
  return cached;
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

export interface EmbeddedDb {
  uri: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startFerretDb(opts: { dataDir: string; port?: number; database?: string }): Promise<EmbeddedDb> {
  const binary = ensureFerretBinary();
  const port = opts.port ?? (await freePort());
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const logFile = fs.openSync(path.join(opts.dataDir, 'ferretdb.log'), 'a');
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${opts.dataDir}/`,
    `--listen-addr=127.0.0.1:${port}`,
    `--state-dir=${opts.dataDir}`,
    '--debug-addr=-',
    '--telemetry=disable',
    '--log-level=error',
  ];
  // A small shell watchdog stops FerretDB when this process dies without cleaning up
  // (SIGKILL, a killed test runner), so no orphan keeps the port or the SQLite files.
  const watchdog =
    '"$@" & child=$!; trap \'kill $child 2>/dev/null; wait $child; exit 0\' TERM INT; ' +
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1; done; ` +
    'kill $child 2>/dev/null; wait $child';
  const child = spawn('sh', ['-c', watchdog, 'ferretdb-watchdog', binary, ...args], {
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
