// Starts a real Relay runtime for a benchmark: its own FerretDB (or MONGODB_URI), the Koa app
// listening on a free loopback port, and a teardown that stops everything.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';
import { destination } from 'pino';
import { createLogger } from '../../src/observability/logger.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createApp } from '../../src/app.ts';
import type { DomainModule } from '../../src/module.ts';
import type { Clock } from '../../src/clock.ts';
import { modules as allModules } from '../../src/modules.ts';
import { processTreeCpuMs } from './cpu.ts';

export interface BenchRuntime {
  runtime: Runtime;
  config: Config;
  uri: string;
  database: BenchDatabase;
  baseUrl: string;
  server: http.Server;
  /** CPU time the embedded database has used so far (0 on MONGODB_URI). */
  dbCpuMs(): number;
  close(): Promise<void>;
}

/** MONGODB_URI when set, else a FerretDB of its own in a temporary directory that close() removes. */
export interface BenchDatabase {
  uri: string;
  /** CPU time the embedded server has used so far (0 for a server given by MONGODB_URI). */
  cpuMs(): number;
  /** Resident memory of the embedded server now, in bytes (0 for a server given by MONGODB_URI). */
  rssBytes(): number;
  /** The embedded server's SQLite WAL now, in bytes (0 for a server given by MONGODB_URI). */
  walSize(): WalSize;
  close(): Promise<void>;
}

/** Resident memory of a process's descendants (not the process itself), from /proc (Linux). */
function descendantsRssBytes(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return children.reduce((sum, child) => {
      const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child}/status`, 'utf8'))?.[1];
      return sum + Number(kb ?? 0) * 1024 + descendantsRssBytes(child);
    }, 0);
  } catch {
    return 0;
  }
}

/**
 * The embedded database's WAL, summed over its databases: `file`, the `*.sqlite-wal` files' size
 * (SQLite never shrinks one below journal_size_limit, so it stays at its high-water mark up to
 * that); `used`, the frames the WAL holds now, from the header of SQLite's wal-index (`*.sqlite-shm`,
 * `mxFrame` at byte 16, the page size at 14, native byte order), which falls to 0 when the WAL restarts.
 */
export interface WalSize {
  file: number;
  used: number;
}
function walSize(dir: string): WalSize {
  const size = { file: 0, used: 0 };
  for (const name of fs.readdirSync(dir)) {
    try {
      if (name.endsWith('.sqlite-wal')) size.file += fs.statSync(path.join(dir, name)).size;
      if (!name.endsWith('.sqlite-shm')) continue;
      const header = Buffer.alloc(24);
      const fd = fs.openSync(path.join(dir, name), 'r');
      try {
        if (fs.readSync(fd, header, 0, 24, 0) < 24) continue;
      } finally {
        fs.closeSync(fd);
      }
      const page = header.readUInt16LE(14) === 1 ? 65_536 : header.readUInt16LE(14);
      const frames = header.readUInt32LE(16);
      // A 32-byte file header, then a 24-byte header per frame.
      if (frames) size.used += 32 + frames * (page + 24);
    } catch {
      // removed between the listing and the read
    }
  }
  return size;
}

/**
 * `dataDir`: the embedded server keeps its data there and close() leaves it, so a later run can
 * start on the same data (bench/scale.ts --data-dir); without it, a temporary directory.
 */
export async function startBenchDatabase(opts: { dataDir?: string } = {}): Promise<BenchDatabase> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, cpuMs: () => 0, rssBytes: () => 0, walSize: () => ({ file: 0, used: 0 }), close: async () => undefined };
  const dir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-db-'));
  const embedded: EmbeddedDb = await startFerretDb({ dataDir: dir, database: 'relay_bench' });
  return {
    uri: embedded.uri,
    // The embedded server runs under a shell watchdog: FerretDB is its child.
    cpuMs: () => processTreeCpuMs(embedded.process.pid),
    rssBytes: () => descendantsRssBytes(embedded.process.pid),
    walSize: () => walSize(dir),
    async close() {
      await embedded.stop();
      if (!opts.dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startBenchRuntime(
  opts: { env?: Record<string, string>; worker?: boolean; extraModules?: DomainModule[]; clock?: Clock; dataDir?: string; role?: { api: boolean; worker: boolean } } = {},
): Promise<BenchRuntime> {
  const database = await startBenchDatabase({ dataDir: opts.dataDir });
  const uri = database.uri;
  const config = loadConfig({ LOG_LEVEL: 'silent', MONGODB_URI: uri, OUTBOUND_ALLOW_PRIVATE: 'true', DATA_DIR: path.join(os.tmpdir(), `relay-bench-${process.pid}`), ...opts.env });
  // BENCH_LOG=path keeps the service's warnings and errors (JSON lines) for reading after a run.
  const logger = process.env.BENCH_LOG ? createLogger('warn', destination({ dest: process.env.BENCH_LOG, sync: false })) : createLogger('silent');
  const runtime = await createRuntime({ config, logger, uri, clock: opts.clock, role: opts.role, modules: [...allModules, ...(opts.extraModules ?? [])] });
  if (opts.worker !== false) await runtime.startWorker();
  const server = http.createServer(createApp(runtime.ctx, runtime.modules).callback());
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    runtime,
    config,
    uri,
    database,
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    dbCpuMs: () => database.cpuMs(),
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await runtime.shutdown();
      await database.close();
    },
  };
}

export function machineLine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}
