// Relay's patch keeps the pushdown's probe answers ("no array at F in this set") in FerretDB's
// process (ferretdb-patch/probe-cache/relay_probe_cache.go). A kept "no" lets SQLite answer a condition
// on F from the index, which misses a document matched through an array element; so every write
// that stores such a value must drop it. Each case primes the answer, writes through one path and
// reads what MongoDB matches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

/** String ids, and objects as ids for the sort by _id (the driver types _id as an ObjectId by default). */
type Doc = { _id: string | { k: number }; [key: string]: unknown };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-probecache-'));
let ferret: EmbeddedDb;
let client: MongoClient;
let db: Db;
let n = 0;

beforeAll(async () => {
  ferret = await startFerretDb({ dataDir: path.join(dir, 'db'), database: 'probecache', logSql: true });
  client = await new MongoClient(ferret.uri).connect();
  db = client.db('probecache');
}, 120_000);
afterAll(async () => {
  await client?.close();
  await ferret?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ids = async (col: Collection<Doc>, filter: object) => (await col.find(filter).toArray()).map((d) => d._id).sort();
const pushedDown = async (col: Collection<Doc>, filter: object) => (await col.find(filter).explain()).filterPushdown as boolean;

/** A collection indexed on `a` whose "no array at a" answer is kept: its pushdown is on. */
async function primed(name = `c${++n}`): Promise<Collection<Doc>> {
  const col = db.collection<Doc>(name);
  await col.createIndex({ a: 1 });
  await col.insertMany([
    { _id: 's1', a: 1, t: 'x' },
    { _id: 's2', a: 2, t: 'x' },
  ]);
  expect(await ids(col, { a: 1 })).toEqual(['s1']);
  expect(await pushedDown(col, { a: 1 })).toBe(true);
  return col;
}

describe('the pushdown\'s kept probe answers on the embedded FerretDB', () => {
  it('keeps a probe\'s answer instead of asking SQLite on every query', async () => {
    const col = await primed();
    const log = path.join(dir, 'db', 'ferretdb.log');
    const probes = () => fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('SELECT EXISTS') && l.includes(col.collectionName)).length;
    // FerretDB writes its log asynchronously: a marker query's statement shows it has caught up.
    const settle = async () => {
      const marker = `m${++n}`;
      await db.collection(marker).findOne({});
      for (let i = 0; i < 200 && !fs.readFileSync(log, 'utf8').includes(marker); i++) await new Promise((r) => setTimeout(r, 25));
    };
    await settle();
    const before = probes();
    for (let i = 0; i < 5; i++) expect(await ids(col, { a: 1 })).toEqual(['s1']);
    await settle();
    expect(probes()).toBe(before);
  });

  // Each write stores an array holding 1 at `a` (s2 held 2): a kept "no array at a" would hide it.
  const writes: Array<[string, (col: Collection<Doc>) => Promise<unknown>, string[]]> = [
    ['insertOne', (col) => col.insertOne({ _id: 'arr', a: [5, 1] }), ['arr', 's1']],
    ['insertMany', (col) => col.insertMany([{ _id: 'x', a: 7 }, { _id: 'arr', a: [1] }]), ['arr', 's1']],
    ['updateOne', (col) => col.updateOne({ _id: 's2' }, { $set: { a: [2, 1] } }), ['s1', 's2']],
    ['updateMany', (col) => col.updateMany({ a: 2 }, { $set: { a: [1, 2] } }), ['s1', 's2']],
    ['replaceOne', (col) => col.replaceOne({ _id: 's2' }, { a: [1] }), ['s1', 's2']],
    ['findOneAndUpdate', (col) => col.findOneAndUpdate({ _id: 's2' }, { $set: { a: [3, 1], n: 1 } }), ['s1', 's2']],
    ['findOneAndReplace', (col) => col.findOneAndReplace({ _id: 's2' }, { a: [1] }), ['s1', 's2']],
    ['an upsert by updateOne', (col) => col.updateOne({ _id: 'new' }, { $set: { a: [1] } }, { upsert: true }), ['new', 's1']],
    ['an upsert by findOneAndUpdate', (col) => col.findOneAndUpdate({ _id: 'new' }, { $set: { a: [0, 1] } }, { upsert: true }), ['new', 's1']],
    ['bulkWrite', (col) => col.bulkWrite([{ updateOne: { filter: { _id: 's2' }, update: { $set: { a: [1] } } } }]), ['s1', 's2']],
  ];
  it.each(writes)('finds a document matched through an array element after %s stores it', async (_, write, want) => {
    const col = await primed();
    await write(col);
    expect(await ids(col, { a: 1 })).toEqual(want);
    expect(await ids(col, { a: { $in: [1, 9] } })).toEqual(want);
    expect(await col.countDocuments({ a: 1 })).toBe(want.length);
  });

  it('finds a document that joins a narrowed set by an update, its array written with it', async () => {
    const col = db.collection<Doc>(`c${++n}`);
    await col.createIndex({ t: 1, a: 1 });
    await col.insertMany([{ _id: 's1', t: 'x', a: 1 }, { _id: 'y1', t: 'y', a: [1] }]);
    expect(await ids(col, { t: 'x', a: 1 })).toEqual(['s1']); // "no array at a among t = x" kept
    expect(await pushedDown(col, { t: 'x', a: 1 })).toBe(true);
    await col.updateOne({ _id: 'y1' }, { $set: { t: 'x' } });
    expect(await ids(col, { t: 'x', a: 1 })).toEqual(['s1', 'y1']);
  });

  it('finds it through a $or of indexed fields after a write stores an array in one', async () => {
    const col = await primed();
    await col.createIndex({ b: 1 });
    await col.updateOne({ _id: 's2' }, { $set: { b: 3 } });
    expect(await ids(col, { $or: [{ a: 9 }, { b: 4 }] })).toEqual([]);
    await col.insertOne({ _id: 'arr', b: [4, 5] });
    expect(await ids(col, { $or: [{ a: 9 }, { b: 4 }] })).toEqual(['arr']);
  });

  it('sorts as MongoDB does after a write stores an array at a sort key', async () => {
    const col = db.collection<Doc>(`c${++n}`);
    await col.createIndex({ c: 1, b: 1 });
    await col.insertMany([{ _id: 'b1', c: 0, b: 1 }, { _id: 'b2', c: 0, b: 2 }]);
    const sorted = async () => (await col.find({ c: 0 }).sort({ b: 1 }).toArray()).map((d) => d._id);
    expect(await sorted()).toEqual(['b1', 'b2']); // "no inexact value at b among c = 0" kept
    // An array sorts by its smallest element ascending: [9, 0] comes first.
    await col.insertOne({ _id: 'arr', c: 0, b: [9, 0] });
    expect(await sorted()).toEqual(['arr', 'b1', 'b2']);
  });

  it('sorts by _id as MongoDB does after objects are stored as _ids', async () => {
    const col = db.collection<Doc>(`c${++n}`);
    await col.createIndex({ c: 1, _id: 1 });
    await col.insertMany([{ _id: 'a', c: 0 }, { _id: 'b', c: 0 }]);
    const byId = async () => (await col.find({ c: 0 }).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await byId()).toEqual(['a', 'b']); // "no inexact _id among c = 0" kept
    // Objects after strings, and among themselves by their fields' values: { k: 2 } before { k: 10 }.
    await col.insertMany([{ _id: { k: 10 }, c: 0 }, { _id: { k: 2 }, c: 0 }]);
    expect(await byId()).toEqual(['a', 'b', { k: 2 }, { k: 10 }]);
  });

  it('answers a collection dropped and created again from its new documents, arrays and pushdown alike', async () => {
    const col = await primed('again');
    await col.drop();
    await col.createIndex({ a: 1 });
    await col.insertMany([{ _id: 's1', a: 1 }, { _id: 'arr', a: [1] }]);
    expect(await ids(col, { a: 1 })).toEqual(['arr', 's1']);
    expect(await pushedDown(col, { a: 1 })).toBe(false); // "an array at a" kept now
    await col.drop();
    await col.createIndex({ a: 1 });
    await col.insertOne({ _id: 's1', a: 1 });
    expect(await pushedDown(col, { a: 1 })).toBe(true);
    expect(await ids(col, { a: 1 })).toEqual(['s1']);
  });

  it('answers a database dropped and created again from its new documents', async () => {
    const other = client.db('probecache_drop');
    const col = other.collection<Doc>('again');
    await col.createIndex({ a: 1 });
    await col.insertOne({ _id: 'arr', a: [1] });
    expect(await pushedDown(col, { a: 1 })).toBe(false);
    await other.dropDatabase();
    await col.createIndex({ a: 1 });
    await col.insertOne({ _id: 's1', a: 1 });
    expect(await pushedDown(col, { a: 1 })).toBe(true);
    expect(await ids(col, { a: 1 })).toEqual(['s1']);
    await other.dropDatabase();
  });

  it('pushes a condition down again once the last array at its field is deleted', async () => {
    const col = await primed();
    await col.insertOne({ _id: 'arr', a: [1] });
    expect(await pushedDown(col, { a: 1 })).toBe(false);
    await col.deleteOne({ _id: 'arr' });
    expect(await pushedDown(col, { a: 1 })).toBe(true);
    expect(await ids(col, { a: 1 })).toEqual(['s1']);
  });
});
