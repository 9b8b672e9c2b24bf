// The mongoose connection: one per process, from MONGODB_URI or the embedded FerretDB.
import mongoose from 'mongoose';
import { stallLimitMs, watchMonitor, type MonitorWatchdog, type MonitorWatchdogOptions } from './monitorWatchdog.ts';

mongoose.set('strictQuery', true);
// NoSQL injection guard (issue 7): a filter value that is an object with `$` keys is matched as a
// literal (`{ $eq: value }`), so `{ "$ne": null }` smuggled into an id matches nothing. Our own
// operator filters opt out explicitly with mongoose.trusted(...); $where/$expr are refused outright.
mongoose.set('sanitizeFilter', true);
// Indexes are built explicitly by ensureIndexes() before the server takes traffic.
mongoose.set('autoIndex', false);

/**
 * FerretDB v1 on SQLite has 100 SQLite connections, and one `update` command holds one per
 * statement until the command ends, plus one for its write (docs/FERRETDB.md, "An update that
 * deadlocks"). 16 client connections sending at most WRITE_BATCH statements each need at most
 * 16 × 5 = 80 of them.
 */
export const FERRETDB_POOL_SIZE = 16;
/** Statements per update command sent by our bulk writes (see FERRETDB_POOL_SIZE). */
export const WRITE_BATCH = 4;
/**
 * Statements per command for a writer that keeps at most one command in flight (SerialBatcher):
 * with the other 15 connections at WRITE_BATCH, 15 × 5 + 17 = 92 SQLite connections at most.
 */
export const SERIAL_WRITE_BATCH = 16;

/**
 * The driver's defaults, set explicitly because the monitor watchdog's limit (80 s) is derived from
 * them. A shorter connect timeout would recover sooner but also fail slow handshakes under load.
 */
const CONNECT_TIMEOUT_MS = 30_000;
const HEARTBEAT_FREQUENCY_MS = 10_000;

let watchdog: MonitorWatchdog | null = null;
/** Whether the connected server is FerretDB, asked once per connect (pool size, indexes). */
let onFerretDb = false;

export interface ConnectOptions {
  /**
   * The server monitor watchdog (monitorWatchdog.ts): `onEvent` is told of stalls and restarts; the
   * limit is derived from the driver's timeouts unless given (tests).
   */
  watchdog?: Partial<MonitorWatchdogOptions>;
}

export async function connectDatabase(uri: string, connectOpts: ConnectOptions = {}): Promise<typeof mongoose> {
  // Fail fast instead of queueing when the database is away; the edge maps it to 503.
  mongoose.set('bufferTimeoutMS', 3_000);
  // No operation waits on its socket for ever: a connection lost without a close (a database host
  // gone mid-request) fails after 2 minutes instead of holding a request or a job lock open.
  const options = {
    serverSelectionTimeoutMS: 5_000,
    socketTimeoutMS: 120_000,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
    // Every string the service reads was written from a JS string, so it is valid UTF-8; checking
    // it again scans each decoded string longer than 20 bytes in JS, a few % of a list page's CPU.
    // Unchecked, a bad byte would read as U+FFFD, not throw (test/db/strings.test.ts).
    enableUtf8Validation: false,
  };
  await mongoose.connect(uri, options);
  onFerretDb = await isFerretDb();
  if (!setsPoolSize(uri) && onFerretDb) {
    await mongoose.disconnect();
    await mongoose.connect(uri, { ...options, maxPoolSize: FERRETDB_POOL_SIZE });
  }
  // A server monitor whose heartbeat never ends (driver 7.8, a write to a destroyed socket) would
  // leave every operation failing server selection for good; the watchdog restarts the client.
  await watchdog?.stop();
  watchdog = watchMonitor(mongoose.connection.getClient(), {
    stallAfterMs: stallLimitMs({ connectTimeoutMS: CONNECT_TIMEOUT_MS, heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS }),
    ...connectOpts.watchdog,
  });
  return mongoose;
}

/** The running monitor watchdog, for tests. */
export function monitorWatchdog(): MonitorWatchdog | null {
  return watchdog;
}

async function isFerretDb(): Promise<boolean> {
  const info = await mongoose.connection.db!.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string';
}

/** An explicit `maxPoolSize` in MONGODB_URI is the operator's choice and is kept. */
function setsPoolSize(uri: string): boolean {
  const query = uri.split('?')[1] ?? '';
  return query.split('&').some((pair) => pair.split('=')[0]!.toLowerCase() === 'maxpoolsize');
}

/** Runs a bulk write as several commands of at most `size` statements, in order. */
export async function bulkWriteInBatches(
  collection: { bulkWrite(ops: never[], options?: { ordered?: boolean }): Promise<unknown> },
  ops: unknown[],
  size = WRITE_BATCH,
): Promise<void> {
  for (let i = 0; i < ops.length; i += size) await collection.bulkWrite(ops.slice(i, i + size) as never[], { ordered: true });
}

/**
 * Makes the indexes of the registered models' collections those their schemas declare: creates the
 * missing ones and drops those an earlier version declared and the schemas no longer do (each still
 * costs every write, and on FerretDB the planner may pick it). Only collections with a model are
 * touched, so Agenda's keep theirs. Call after all models are imported. The same plain MongoDB
 * indexes serve MongoDB and the embedded FerretDB, whose build carries Relay's patch so SQLite
 * answers filters, sorts and counts from them (docs/FERRETDB.md). Returns the dropped indexes as
 * `collection.index`.
 */
export async function ensureIndexes(): Promise<string[]> {
  const dropped: string[] = [];
  for (const name of mongoose.modelNames()) {
    const model = mongoose.model(name);
    const { toDrop } = await model.diffIndexes();
    for (const index of toDrop) {
      // Another process starting at the same time may have dropped it first.
      await model.collection.dropIndex(index).catch((err: { code?: number }) => {
        if (err.code !== INDEX_NOT_FOUND) throw err;
      });
      dropped.push(`${model.collection.collectionName}.${index}`);
    }
    await model.createIndexes();
  }
  return dropped;
}
const INDEX_NOT_FOUND = 27;

export async function disconnectDatabase(): Promise<void> {
  await watchdog?.stop();
  watchdog = null;
  await mongoose.disconnect();
}

export function databaseIsConnected(): boolean {
  return mongoose.connection.readyState === 1;
}

/**
 * Marks an operator object written by our own code (`{ $lt: cutoff }`, `{ $in: ids }`) so that
 * sanitizeFilter keeps it an operator. Never wrap a value that came from a request.
 */
export function trusted<const T extends object>(operators: T): T {
  return mongoose.trusted(operators);
}
