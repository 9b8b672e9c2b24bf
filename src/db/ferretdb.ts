// The embedded default database: FerretDB v1.24.2 on SQLite, installed with Go on first use.
// Used by `npm start` without MONGODB_URI, by the test harness and by CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, patchHash } from './ferretdb-patch/patch.ts';

export const FERRETDB_VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';

export class EmbeddedDbUnavailable extends Error {}

function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'relay', 'bin');
}

/** The patched binary's name carries the patch's hash, so a binary of an older patch is never reused. */
export function ferretBinaryPath(): string {
  return path.join(cacheDir(), `ferretdb-${FERRETDB_VERSION}-relay-${patchHash()}`);
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

// Runs one step of the build in a Node child that starts the command and prints the step and the
// time taken every 10 s on stderr (a first build takes minutes, mostly compiling SQLite); the
// command's own output is passed back on stdout, for the error message when it fails.
const PROGRESS_CHILD = `
const { spawn } = await import('node:child_process');
const [label, started, cmd, ...args] = process.argv.slice(1);
const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
let packages = 0;
child.stdout.pipe(process.stdout);
child.stderr.on('data', (d) => { packages += String(d).split('\\n').filter((l) => /^[\\w.-]+(\\/[\\w.@-]+)+$/.test(l.trim())).length; process.stdout.write(d); });
const elapsed = () => { const s = Math.round((Date.now() - Number(started)) / 1000); return s >= 60 ? Math.floor(s / 60) + ' min ' + (s % 60) + ' s' : s + ' s'; };
const tick = setInterval(() => process.stderr.write('relay: FerretDB build: ' + label + (packages ? ', ' + packages + ' packages compiled' : '') + ', ' + elapsed() + ' so far\\n'), 10_000);
child.on('close', (code) => { clearInterval(tick); process.exit(code ?? 1); });
`;

function runStep(label: string, started: number, cmd: string, args: string[], opts: { cwd?: string; env: NodeJS.ProcessEnv }) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', PROGRESS_CHILD, label, String(started), cmd, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

const elapsedText = (started: number) => `${Math.round((Date.now() - started) / 1000)} s`;

/**
 * Builds FerretDB with Relay's patch (ferretdb-patch/): `go mod download` the module, copy it,
 * write the version file its build expects (the module zip lacks it, so `go install` gives a
 * binary that panics at start), apply the patch and `go build`.
 */
function buildPatched(go: string, out: string, log: (line: string) => void): void {
  const started = Date.now();
  log('relay: FerretDB build step 1/3: downloading the module (go mod download)');
  const download = runStep('step 1/3, downloading the module', started, go, ['mod', 'download', '-json', `${MODULE}@${FERRETDB_VERSION}`], {
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (download.status !== 0) throw new EmbeddedDbUnavailable(`go mod download failed:\n${download.stdout}`);
  const moduleDir = JSON.parse(download.stdout).Dir as string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-ferretdb-src-'));
  try {
    fs.cpSync(moduleDir, work, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', work]);
    fs.writeFileSync(path.join(work, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    log(`relay: FerretDB build step 2/3: patching the source (${elapsedText(started)})`);
    applyPatch(work);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const tmpOut = `${out}.tmp-${process.pid}`;
    log(`relay: FerretDB build step 3/3: compiling with go build (${elapsedText(started)}; progress every 10 s)`);
    const build = runStep('step 3/3, compiling', started, go, ['build', '-v', '-trimpath', '-o', tmpOut, './cmd/ferretdb'], {
      cwd: work,
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    if (build.status !== 0) throw new EmbeddedDbUnavailable(`building FerretDB failed:\n${build.stdout.split('\n').slice(-40).join('\n')}`);
    log(`relay: FerretDB built in ${elapsedText(started)}`);
    fs.renameSync(tmpOut, out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Finds the patched FerretDB binary, building it with Go when missing. An unpatched FerretDB is
 * not used: it loses concurrent updates, which the domains rely on being atomic (docs/FERRETDB.md).
 */
export function ensureFerretBinary(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  const cached = ferretBinaryPath();
  if (fs.existsSync(cached) && versionOf(cached) === FERRETDB_VERSION) return cached;
  const go = findGo();
  if (!go) {
    throw new EmbeddedDbUnavailable(
      'No database configured: MONGODB_URI is unset and Go is not available to build the embedded default (FerretDB with Relay\'s patch).\n' +
        'Options: `docker compose up` (MongoDB 7), or set MONGODB_URI=mongodb://host:27017/relay, or install Go so FerretDB can be built.',
    );
  }
  log(`relay: building FerretDB ${FERRETDB_VERSION} with Relay's patch with Go (first run only; several minutes from nothing, see README)…`);
  buildPatched(go, cached, log);
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

/**
 * Go's garbage collector target for the embedded FerretDB. Its live heap is small and it allocates
 * a lot per document (decoding each stored row), so at Go's default (100) it collects very often:
 * 400 cut its CPU for a page of 100 webhook deliveries from 18-20 ms to 10.5 ms, for peak RSS 49 ->
 * 84 MiB on that data (docs/BENCHMARKS.md, issue 17); 1600 cut another 8-14 % from the delivery
 * lists' pages, for peak RSS 59-72 -> 113-140 MiB at `--scale 0.1` (session 30). The heap goal is
 * 17 times the live heap, so FERRETDB_GOMEMLIMIT caps it: past the cap Go collects as often as it
 * must to stay under it, whatever GOGC says.
 */
const FERRETDB_GOGC = '1600';
const FERRETDB_GOMEMLIMIT = '256MiB';

export interface EmbeddedDb {
  uri: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Indexes whose lists' exact totals the patch keeps counted per key (`collection:index`,
 * relay_counts.go; docs/FERRETDB.md, "Maintained counts"): a `countDocuments` of their keys reads
 * one row instead of every index entry of the tenant. A name that no longer matches a model's
 * index only stops the saving (the last case of test/db/ferretdb-counts.test.ts checks they match).
 */
export const COUNTED_INDEXES = [
  'datasourcerows:dataSourceId_1__id_1', // a source's rows pages (spec "List rows")
  'conversations:botId_1__id_1', // a bot's conversations
  'conversations:botId_1_state_1__id_1', // the agents' inbox and the state-filtered list
  // A hook's delivery log (its total capped at DELIVERY_LIST_TOTAL_LIMIT: still 40,000 VM steps a
  // page); the deliveries' updates never move webhookId (docs/BENCHMARKS.md, "Session 28: the delivery log's kept count").
  'webhookdeliveries:webhookId_1__id_1',
];

/** 64 MiB: 16 automatic checkpoints' worth of WAL (1,000 pages of 4 KiB each). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

export async function startFerretDb(opts: {
  dataDir: string;
  port?: number;
  database?: string;
  /** false: Relay's pushdown off, FerretDB filters and sorts everything in Go (the property test's oracle). */
  pushdown?: boolean;
  /** false: no restart loop for WALs that steady readers keep from restarting (the WAL test's control). */
  walRestart?: boolean;
  /** false: updates on one collection no longer take turns, so concurrent ones can lose each other's writes (the lost-update test's control). */
  atomicUpdates?: boolean;
  /** false: the pushdown's probes ask SQLite every time instead of keeping their answers (benches' other side). */
  probeCache?: boolean;
  /** true: every SQL statement is logged to DIR/ferretdb.log as JSON (bench/reads.ts reads it). */
  logSql?: boolean;
  /** true: each attempt of the WAL restart loop is logged to DIR/ferretdb.log as JSON (the WAL test reads it). */
  walLog?: boolean;
  /** Bytes the WAL file is cut back to when SQLite restarts it (default WAL_SIZE_LIMIT). */
  walSizeLimit?: number;
  /** The indexes whose counts are kept (default COUNTED_INDEXES; [] keeps none, the count test's control). */
  counted?: string[];
  /** Go's GC target and memory limit for FerretDB (default FERRETDB_GOGC, FERRETDB_GOMEMLIMIT): for benches that compare them. */
  goGc?: string;
  goMemLimit?: string;
}): Promise<EmbeddedDb> {
  const binary = ensureFerretBinary();
  const port = opts.port ?? (await freePort());
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const logFile = fs.openSync(path.join(opts.dataDir, 'ferretdb.log'), 'a');
  const args = [
    '--handler=sqlite',
    // WAL (FerretDB's default) with synchronous=NORMAL: a commit no longer waits for an fsync, which
    // more than halved write latency here. A process crash loses nothing; a power cut may lose the
    // last commits. Production runs on MongoDB (docs/FERRETDB.md, "Durability of the embedded default").
    // journal_size_limit: SQLite reuses its WAL file from the start but never shrinks it, so one
    // burst left it at its peak for good (46 GB beside a 4.3 GB database after seeding
    // bench/scale.ts --scale 1; docs/FERRETDB.md). With the limit, a restart cuts it back.
    `--sqlite-url=file:${opts.dataDir}/?_pragma=synchronous(normal)&_pragma=journal_size_limit(${opts.walSizeLimit ?? WAL_SIZE_LIMIT})`,
    `--listen-addr=127.0.0.1:${port}`,
    `--state-dir=${opts.dataDir}`,
    '--debug-addr=-',
    '--telemetry=disable',
    ...(opts.logSql ? ['--log-level=debug', '--log-format=json'] : ['--log-level=error']),
  ];
  // A small shell watchdog stops FerretDB when this process dies without cleaning up
  // (SIGKILL, a killed test runner), so no orphan keeps the port or the SQLite files. It is gone
  // before stop() resolves, so the data directory can be removed right after.
  const watchdog =
    `"$@" & child=$!; trap 'kill $child 2>/dev/null; wait; exit 0' TERM INT; ` +
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1; done; ` +
    'kill $child 2>/dev/null; wait';
  const child = spawn('sh', ['-c', watchdog, 'ferretdb-watchdog', binary, ...args], {
    stdio: ['ignore', logFile, logFile],
    env: {
      ...process.env,
      GOGC: opts.goGc ?? FERRETDB_GOGC,
      GOMEMLIMIT: opts.goMemLimit ?? FERRETDB_GOMEMLIMIT,
      RELAY_FERRETDB_COUNTED: (opts.counted ?? COUNTED_INDEXES).join(' '),
      ...(opts.pushdown === false ? { RELAY_FERRETDB_PUSHDOWN: 'off' } : {}),
      ...(opts.walRestart === false ? { RELAY_FERRETDB_WAL_RESTART: 'off' } : {}),
      ...(opts.walLog ? { RELAY_FERRETDB_WAL_LOG: '1' } : {}),
      ...(opts.atomicUpdates === false ? { RELAY_FERRETDB_ATOMIC_UPDATES: 'off' } : {}),
      ...(opts.probeCache === false ? { RELAY_FERRETDB_PROBE_CACHE: 'off' } : {}),
    },
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
