// Where the database is: MONGODB_URI when set, else the embedded FerretDB under DATA_DIR/db.
// A running embedded instance (started by `npm start`) is reused, so the CLI talks to the same data.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { portAcceptsConnections, startFerretDb, type EmbeddedDb } from './ferretdb.ts';

export interface ResolvedDatabase {
  uri: string;
  embedded?: EmbeddedDb;
}

export async function resolveDatabase(config: Config, log: (line: string) => void): Promise<ResolvedDatabase> {
  if (config.MONGODB_URI) return { uri: config.MONGODB_URI };
  const port = config.EMBEDDED_DB_PORT;
  const uri = `mongodb://127.0.0.1:${port}/relay`;
  if (await portAcceptsConnections(port)) {
    log(`relay: using the embedded database already running on port ${port}`);
    return { uri };
  }
  const dataDir = path.join(config.dataDir, 'db');
  fs.mkdirSync(dataDir, { recursive: true });
  log(`relay: MONGODB_URI is unset; starting embedded FerretDB (SQLite under ${dataDir}) on port ${port}`);
  const embedded = await startFerretDb({ dataDir, port, database: 'relay' });
  return { uri, embedded };
}
