// Two FerretDBs of the same build for tests that compare answers: one as Relay runs it, one with the
// patch's pushdown and decoding off (RELAY_FERRETDB_PUSHDOWN=off: FerretDB's own code, the oracle).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

export interface OraclePair {
  /** A scratch directory the two databases live under; removed after the file unless KEEP is set. */
  dir: string;
  patched: MongoClient;
  oracle: MongoClient;
}

export function usePatchedAndOracle(database: string): OraclePair {
  const pair = { dir: fs.mkdtempSync(path.join(os.tmpdir(), `relay-${database}-`)) } as OraclePair;
  let dbs: EmbeddedDb[] = [];
  beforeAll(async () => {
    dbs = await Promise.all([
      startFerretDb({ dataDir: path.join(pair.dir, 'on'), database }),
      startFerretDb({ dataDir: path.join(pair.dir, 'off'), database, pushdown: false }),
    ]);
    [pair.patched, pair.oracle] = await Promise.all(dbs.map((db) => new MongoClient(db.uri).connect()));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([pair.patched?.close(), pair.oracle?.close()]);
    await Promise.all(dbs.map((db) => db.stop()));
    if (!process.env.KEEP) fs.rmSync(pair.dir, { recursive: true, force: true });
  });
  return pair;
}
