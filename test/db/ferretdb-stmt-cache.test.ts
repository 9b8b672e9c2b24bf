// Relay's patch keeps each SQLite connection's compiled statements by SQL text
// (ferretdb-patch/stmt-cache/relay_stmt_cache.go). A kept statement must answer as a freshly compiled
// one: after a collection is dropped and recreated, after an index is created, and for `$in` lists
// of every length. The same workload runs against a FerretDB with the cache and one without, and
// every answer (documents, counts, write results, errors) is compared.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-stmtcache-'));
type Item = { _id: number; a?: number | number[]; s?: string; t?: number; n?: number; u?: number };
const servers: EmbeddedDb[] = [];
const clients: MongoClient[] = [];

beforeAll(async () => {
  for (const stmtCache of [true, false]) {
    const ferret = await startFerretDb({ dataDir: path.join(dir, String(stmtCache)), database: 'stmtcache', stmtCache });
    servers.push(ferret);
    clients.push(await new MongoClient(ferret.uri).connect());
  }
}, 300_000);
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const ferret of servers) await ferret.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the workload and returns every answer it got, errors as their code and message. */
async function workload(db: Db): Promise<unknown[]> {
  const out: unknown[] = [];
  const answer = async (f: () => Promise<unknown>) => {
    try {
      out.push(await f());
    } catch (err) {
      const e = err as { code?: number; message?: string };
      out.push({ error: e.code, message: e.message });
    }
  };
  const col = () => db.collection<Item>('items');
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 60; i++) await answer(() => col().insertOne({ _id: i, a: i % 7, s: `s${i % 5}`, t: round }));
    await answer(() => col().insertMany(Array.from({ length: 40 }, (_, i) => ({ _id: 100 + i, a: [i % 3, 9], s: 'many' }))));
    for (let len = 1; len <= 40; len++) {
      const list = Array.from({ length: len }, (_, i) => (i * 3) % 70);
      await answer(() => col().find({ _id: { $in: list } }).sort({ _id: 1 }).toArray());
      await answer(() => col().find({ a: { $in: list.slice(0, (len % 6) + 1) } }).sort({ _id: 1 }).toArray());
    }
    await answer(() => col().updateMany({ a: 3 }, { $set: { u: round }, $inc: { n: 1 } }));
    await answer(() => col().updateOne({ _id: 5 }, { $set: { s: 'changed' } }));
    await answer(() => col().findOneAndUpdate({ s: 's1' }, { $inc: { n: 2 } }, { sort: { _id: -1 }, returnDocument: 'after' }));
    await answer(() => col().deleteMany({ _id: { $in: [1, 2, 3, 200] } }));
    await answer(() => col().countDocuments({ a: { $gte: 2 } }));
    await answer(() => col().find({}).sort({ _id: 1 }).toArray());
    // An index created after the statements above were kept, then a duplicate _id through the kept INSERT.
    await answer(() => col().createIndex({ s: 1, a: -1 }, { name: `s${round}` }));
    await answer(() => col().insertOne({ _id: 1000 + round, s: 's2' }));
    await answer(() => col().insertOne({ _id: 10, s: 'dup' }));
    await answer(() => col().find({ s: { $in: ['s2', 'many'] } }).sort({ _id: 1 }).toArray());
    // Dropped: reads answer nothing, a write recreates it; the next round starts from scratch.
    await answer(() => col().drop());
    await answer(() => col().find({ _id: { $in: [4, 5] } }).toArray());
    await answer(() => col().countDocuments({}));
    await answer(() => db.collection<Item>('other').insertOne({ _id: round }));
  }
  await answer(() => db.collection('other').find({}).toArray());
  return out;
}

describe('the statement cache of the embedded FerretDB', () => {
  it('answers a workload of writes, $in lists, a new index and a dropped collection as without it', async () => {
    const [withCache, without] = await Promise.all(clients.map((client) => workload(client.db('stmtcache'))));
    expect(withCache.length).toBeGreaterThan(300);
    expect(withCache.some((a) => (a as { error?: number })?.error === 11000)).toBe(true);
    expect(withCache).toEqual(without);
  }, 240_000);
});
