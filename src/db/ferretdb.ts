// The embedded default database: FerretDB on SQLite with Relay's patch (ferretdb-patch/ at the
// repository's root), built with Go on first use. Used by `npm start` without MONGODB_URI, by the
// test harness and by CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';

/** The patch's folder at the repository's root: two levels up from src/db, three from the compiled dist/src/db. */
const PATCH_DIR = [2, 3]
  .map((up) => path.resolve(path.dirname(fileURLToPath(import.meta.url)), ...Array<string>(up).fill('..'), 'ferretdb-patch'))
  .find((dir) => fs.existsSync(path.join(dir, 'upstream.json')))!;

export class EmbeddedDbUnavailable extends Error {}

function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'relay', 'bin');
}

/** The FerretDB release the patch applies to (ferretdb-patch/upstream.json). */
function upstreamVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(PATCH_DIR, 'upstream.json'), 'utf8')) as { version: string }).version;
}

/** A hash of the patch's folder but its docs and tests: a changed patch is always rebuilt. */
function patchHash(): string {
  const hash = crypto.createHash('sha256');
  const files = (fs.readdirSync(PATCH_DIR, { recursive: true }) as string[]).filter((f) => !/\.md$|_test\.go$|^test\.ts$/.test(f)).sort();
  for (const file of files) {
    const full = path.join(PATCH_DIR, file);
    if (fs.statSync(full).isFile()) hash.update(file.split(path.sep).join('/')).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 12);
}

/** The patched binary's name carries the patch's hash, so a binary of an older patch is never reused. */
export function ferretBinaryPath(): string {
  return path.join(cacheDir(), `ferretdb-${upstreamVersion()}-relay-${patchHash()}`);
}

function versionOf(binary: string): string | undefined {
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (out.status !== 0) return undefined;
  return /version:\s*(\S+)/.exec(out.stdout)?.[1];
}

function goInstalled(): boolean {
  return spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).status === 0 || fs.existsSync('/usr/local/go/bin/go');
}

/**
 * Finds the patched FerretDB binary, building it with Go (ferretdb-patch/build.ts) when missing.
 * An unpatched FerretDB is not used: it loses concurrent updates, which the domains rely on being
 * atomic (ferretdb-patch/README.md).
 */
export function ensureFerretBinary(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  const cached = ferretBinaryPath();
  const version = upstreamVersion();
  if (fs.existsSync(cached) && versionOf(cached) === version) return cached;
  if (!goInstalled()) {
    throw new EmbeddedDbUnavailable(
      'No database configured: MONGODB_URI is unset and Go is not available to build the embedded default (FerretDB with Relay\'s patch).\n' +
        'Options: `docker compose up` (MongoDB 7), or set MONGODB_URI=mongodb://host:27017/relay, or install Go so FerretDB can be built.',
    );
  }
  log(`relay: building FerretDB ${version} with Relay's patch (first run only; minutes from nothing, progress every 10 s)…`);
  // The patch's tooling is TypeScript outside src/, so it runs through tsx (a runtime dependency),
  // also from the compiled dist/. Its progress and Go's errors go straight to our stderr.
  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(PATCH_DIR, 'build.ts'), cached], {
    cwd: path.dirname(PATCH_DIR),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (build.status !== 0) throw new EmbeddedDbUnavailable('building FerretDB failed (Go\'s output is above)');
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
 * 84 MiB on that data; 1600 cut another 8-14 % from the delivery lists' pages, for peak RSS
 * 59-72 -> 113-140 MiB at `bench/scale.ts --scale 0.1` (docs/BENCHMARKS.md). The heap goal is
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
 * ferretdb-patch/counts/): a `countDocuments` of their keys reads
 * one row instead of every index entry of the tenant. A name that no longer matches a model's
 * index only stops the saving (the last case of test/db/ferretdb-counts.test.ts checks they match).
 */
export const COUNTED_INDEXES = [
  'datasourcerows:dataSourceId_1__id_1', // a source's rows pages (spec "List rows")
  'conversations:botId_1__id_1', // a bot's conversations
  'conversations:botId_1_state_1__id_1', // the agents' inbox and the state-filtered list
  // A hook's delivery log (its total capped at DELIVERY_LIST_TOTAL_LIMIT: still 40,000 VM steps a
  // page); the deliveries' updates never move webhookId.
  'webhookdeliveries:webhookId_1__id_1',
];

/** 64 MiB: 16 automatic checkpoints' worth of WAL (1,000 pages of 4 KiB each). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** The lock's folder in a data directory; its time is renewed every LOCK_STALE_MS / 2 while FerretDB runs. */
const LOCK_NAME = 'ferretdb.lock';
/**
 * A lock not renewed for this long belongs to a launcher that died (its FerretDB is gone a second
 * after it: the watchdog in startFerretDb): a start waits about that long for it before refusing.
 */
const LOCK_STALE_MS = 10_000;

/**
 * Two FerretDBs on one directory corrupt its SQLite files (a bench instance left running beside the
 * next one's ended in "database disk image is malformed"). So a start takes the directory's lock
 * first and refuses while another launcher holds it. Returns the release, safe to call twice.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, LOCK_NAME),
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: { retries: 6, minTimeout: 500, maxTimeout: 2_000 },
      // A renewal that came too late (an event loop blocked past STALE_MS) is reported, not thrown
      // from a timer: FerretDB keeps serving this process.
      onCompromised: (err) => process.emitWarning(`the lock of ${dataDir} was lost: ${err.message}`),
    });
    fs.chmodSync(path.join(dataDir, LOCK_NAME), 0o700);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ELOCKED') throw err;
    throw new EmbeddedDbUnavailable(`${dataDir} is in use by another FerretDB (${LOCK_NAME} is held): stop it, or use another data directory`);
  }
  let released: Promise<void> | null = null;
  return () => (released ??= release().catch(() => undefined));
}

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
  /** false: SQLite compiles every statement afresh instead of each connection keeping its compiled ones (the statement-cache test's oracle). */
  stmtCache?: boolean;
  /** true: every SQL statement is logged to DIR/ferretdb.log as JSON (the pushdown, counts and probe-cache tests read it). */
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
  // Owner only: the SQLite files hold hook secrets in the clear, conversations and rows (F1).
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const unlock = await lockDataDir(opts.dataDir);
  const logFile = fs.openSync(path.join(opts.dataDir, 'ferretdb.log'), 'a', 0o600);
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
  // `umask 077`: FerretDB creates its SQLite, WAL and state files 0600.
  const watchdog =
    `umask 077; "$@" & child=$!; trap 'kill $child 2>/dev/null; wait; exit 0' TERM INT; ` +
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
      ...(opts.stmtCache === false ? { RELAY_FERRETDB_STMT_CACHE: 'off' } : {}),
    },
  });
  fs.closeSync(logFile);
  let exited = false;
  let unlocked: Promise<void> | null = null;
  child.once('exit', () => {
    exited = true;
    unlocked = unlock();
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
  // Resolved once FerretDB is gone and its directory unlocked, so a new start can take it at once.
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }).then(() => unlocked ?? unlock());
  return { uri: `mongodb://127.0.0.1:${port}/${opts.database ?? 'relay'}`, port, process: child, stop };
}
