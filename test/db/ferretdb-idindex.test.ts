// The embedded FerretDB's _id index helper (src/db/ferretdb-idindex): FerretDB v1.24.2 filters _id
// on an expression its own index does not cover, so without the helper every _id read and write
// scans. FerretDB's explain shows the SQLite plan, which names the index once the helper made it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';
import { waitFor } from '../helpers/harness.ts';

describe('embedded FerretDB _id index helper', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-idindex-'));
  let db: EmbeddedDb;
  let client: MongoClient;

  beforeAll(async () => {
    db = await startFerretDb({ dataDir: dir, database: 'idindex' });
    client = await new MongoClient(db.uri).connect();
  });
  afterAll(async () => {
    await client?.close();
    await db?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // EXPLAIN QUERY PLAN runs on a SQLite connection's cached schema; a real query first makes the
  // connection notice the new index.
  const plan = async (collection: string, filter: Record<string, unknown>) => {
    await client.db('idindex').collection(collection).findOne(filter);
    const res = await client.db('idindex').command({ explain: { find: collection, filter } });
    return JSON.stringify(res.queryPlanner);
  };

  it('indexes a collection created after start, so an _id lookup searches instead of scanning', async () => {
    const col = client.db('idindex').collection<{ _id: string; n: number }>('created_later');
    // Enough rows that SQLite prefers an index over a scan once one exists.
    await col.insertMany(Array.from({ length: 2000 }, (_, n) => ({ _id: `doc-${n}`, n })));
    await waitFor(async () => (await plan('created_later', { _id: 'doc-1999' })).includes('USING INDEX created_later_'), 20_000);
    expect(await plan('created_later', { _id: 'doc-1999' })).toMatch(/SEARCH created_later_\w+ USING INDEX created_later_\w+__relay_id_expr/);

    // Reads and writes by _id still behave: the index is SQLite's, FerretDB's own metadata is untouched.
    await col.updateOne({ _id: 'doc-1999' }, { $set: { n: -1 } });
    expect(await col.findOne({ _id: 'doc-1999' })).toEqual({ _id: 'doc-1999', n: -1 });
    await col.deleteOne({ _id: 'doc-5' });
    expect(await col.countDocuments()).toBe(1999);
    const indexes = await col.listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(['_id_']);
  });

  it('keeps working for a collection that was dropped and created again', async () => {
    const col = client.db('idindex').collection<{ _id: string }>('recreated');
    await col.insertMany(Array.from({ length: 2000 }, (_, n) => ({ _id: `a-${n}` })));
    await waitFor(async () => (await plan('recreated', { _id: 'a-1' })).includes('__relay_id_expr'), 20_000);
    await col.drop();
    await col.insertMany(Array.from({ length: 2000 }, (_, n) => ({ _id: `b-${n}` })));
    await waitFor(async () => (await plan('recreated', { _id: 'b-1' })).includes('__relay_id_expr'), 20_000);
    expect(await col.findOne({ _id: 'b-1999' })).toEqual({ _id: 'b-1999' });
    expect(await col.findOne({ _id: 'a-1' })).toBeNull();
  });
});
