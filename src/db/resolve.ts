// Where the database is: MONGODB_URI when set, else the embedded FerretDB under DATA_DIR/db.
// A running embedded instance is reused only when it was started for this DATA_DIR (the CLI beside
// `npm start`); one started for another data directory is refused, so two installs never share data.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Config } from '../config.ts';
import { EmbeddedDbUnavailable, portAcceptsConnections, startFerretDb, type EmbeddedDb } from './ferretdb.ts';

export interface ResolvedDatabase {
  uri: string;
  embedded?: EmbeddedDb;
}

/** The launcher's mark, in DATA_DIR/db and in the database it started: the same id in both means "ours". */
const INSTANCE_FILE = 'instance-id';
const INSTANCE_DATABASE = 'relay_instance';

/** DATA_DIR holds secrets (hook secrets in the clear, the admin token, conversations): owner only (F1). */
export function prepareDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Files and folders written before the data folder was private are made so at start. */
function tightenDatabaseFiles(dbDir: string): void {
  for (const entry of fs.readdirSync(dbDir, { withFileTypes: true })) {
    fs.chmodSync(path.join(dbDir, entry.name), entry.isDirectory() ? 0o700 : 0o600);
  }
}

async function withClient<T>(port: number, fn: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/`, { serverSelectionTimeoutMS: 5000, directConnection: true });
  try {
    await client.connect();
    return await fn(client);
  } finally {
    await client.close();
  }
}

type InstanceMark = { _id: string; instanceId: string; dataDir: string };

/** The data directory the database on `port` was started for, and whether it is `dbDir`'s. */
async function ownerOf(port: number, dbDir: string): Promise<{ ours: boolean; dataDir?: string }> {
  let mark: InstanceMark | null;
  try {
    mark = await withClient(port, (c) => c.db(INSTANCE_DATABASE).collection<InstanceMark>('instance').findOne({ _id: 'embedded' }));
  } catch {
    return { ours: false };
  }
  let ownId: string | undefined;
  try {
    ownId = fs.readFileSync(path.join(dbDir, INSTANCE_FILE), 'utf8').trim();
  } catch {
    ownId = undefined;
  }
  return { ours: !!mark && !!ownId && mark.instanceId === ownId, dataDir: mark?.dataDir };
}

async function markInstance(port: number, dbDir: string, dataDir: string): Promise<void> {
  const instanceId = randomUUID();
  fs.writeFileSync(path.join(dbDir, INSTANCE_FILE), `${instanceId}\n`, { mode: 0o600 });
  await withClient(port, (c) =>
    c.db(INSTANCE_DATABASE).collection<InstanceMark>('instance').replaceOne({ _id: 'embedded' }, { instanceId, dataDir }, { upsert: true }),
  );
}

export async function resolveDatabase(config: Config, log: (line: string) => void): Promise<ResolvedDatabase> {
  if (config.MONGODB_URI) return { uri: config.MONGODB_URI };
  const port = config.EMBEDDED_DB_PORT;
  const uri = `mongodb://127.0.0.1:${port}/relay`;
  prepareDataDir(config.dataDir);
  const dataDir = fs.realpathSync(config.dataDir);
  const dbDir = path.join(dataDir, 'db');
  fs.mkdirSync(dbDir, { recursive: true, mode: 0o700 });
  if (await portAcceptsConnections(port)) {
    const owner = await ownerOf(port, dbDir);
    if (owner.ours) {
      log(`relay: using this DATA_DIR's embedded database, already running on port ${port}`);
      return { uri };
    }
    const whose = owner.dataDir ? `the embedded database of another data directory (${owner.dataDir})` : 'something other than the embedded database of this data directory';
    throw new EmbeddedDbUnavailable(`relay: EMBEDDED_DB_PORT ${port} is in use by ${whose}; set EMBEDDED_DB_PORT to a free port for ${dataDir}`);
  }
  log(`relay: MONGODB_URI is unset; starting embedded FerretDB (SQLite under ${dbDir}) on port ${port}`);
  const embedded = await startOwnEmbeddedDb(dataDir, port).catch(async (err) => {
    // Taken between the check and the start (or on another address): say which variable to set.
    if (await portAcceptsConnections(port)) throw new EmbeddedDbUnavailable(`relay: EMBEDDED_DB_PORT ${port} is already in use; set EMBEDDED_DB_PORT to a free port`);
    throw err;
  });
  return { uri, embedded };
}

/**
 * Starts the embedded FerretDB of `dataDir` (a real path, prepared) on `port` and marks it as that
 * data directory's, so another process on the same DATA_DIR without MONGODB_URI uses it (the
 * server beside `relay db serve`, or the CLI beside `npm start`).
 */
export async function startOwnEmbeddedDb(dataDir: string, port: number): Promise<EmbeddedDb> {
  const dbDir = path.join(dataDir, 'db');
  fs.mkdirSync(dbDir, { recursive: true, mode: 0o700 });
  tightenDatabaseFiles(dbDir);
  const embedded = await startFerretDb({ dataDir: dbDir, port, database: 'relay' });
  try {
    await markInstance(port, dbDir, dataDir);
  } catch (err) {
    await embedded.stop();
    throw err;
  }
  return embedded;
}
