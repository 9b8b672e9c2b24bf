// The patch keeps the counts of the indexes named in RELAY_FERRETDB_COUNTED by SQLite triggers
// (ferretdb-patch/counts/relay_counts.go), so a list's exact total is one row, not every index
// entry of the tenant. Counts must stay what the documents say through every kind of write, writes
// at once, a write that fails half-way, and data directories written without the counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Double, Long, MongoClient, ObjectId, type Collection } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { COUNTED_INDEXES, startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

type Thing = { _id: string; ds?: unknown; bot?: string; state?: string | null; n: number };
const COUNTED = ['things:ds_1__id_1', 'things:bot_1_state_1__id_1'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-counts-'));
const opened: Array<{ db: EmbeddedDb; client: MongoClient }> = [];
afterAll(async () => {
  for (const { db, client } of opened) {
    await client.close();
    await db.stop();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(name: string, counted: string[], logSql = false): Promise<{ col: Collection<Thing>; log: string; close: () => Promise<void> }> {
  const db = await startFerretDb({ dataDir: path.join(dir, name), database: 'counts', counted, logSql });
  const client = await MongoClient.connect(db.uri, { maxPoolSize: 8 });
  const entry = { db, client };
  opened.push(entry);
  const col = client.db('counts').collection<Thing>('things');
  await col.createIndex({ ds: 1, _id: 1 });
  await col.createIndex({ bot: 1, state: 1, _id: 1 });
  const close = async () => {
    opened.splice(opened.indexOf(entry), 1);
    await client.close();
    await db.stop();
  };
  return { col, log: path.join(dir, name, 'ferretdb.log'), close };
}

const FILTERS: Array<Record<string, unknown>> = [
  { ds: 'a' }, { ds: 'b' }, { ds: 'none' }, { ds: null },
  { bot: 'x', state: 'Open' }, { bot: 'x', state: 'Closed' }, { bot: 'y', state: 'Open' }, { bot: 'x', state: null },
];

/** Every filter's countDocuments (capped too) against the documents a full read finds. */
async function expectCountsTrue(col: Collection<Thing>) {
  const all = await col.find({}).toArray();
  for (const f of FILTERS) {
    // MongoDB's equality: null matches null and missing, a value matches an array holding it
    const matches = (have: unknown, v: unknown) => (v === null ? have == null : Array.isArray(have) ? have.includes(v) : have === v);
    const want = all.filter((d) => Object.entries(f).every(([k, v]) => matches((d as Record<string, unknown>)[k], v))).length;
    expect(await col.countDocuments(f), JSON.stringify(f)).toBe(want);
    expect(await col.countDocuments(f, { limit: 3 }), `${JSON.stringify(f)} limit 3`).toBe(Math.min(want, 3));
  }
}

const id = (n: number) => `t-${String(n).padStart(5, '0')}`;
const thing = (n: number): Thing => ({ _id: id(n), ds: ['a', 'b', null][n % 3], bot: ['x', 'y'][n % 2], state: ['Open', 'Closed', null][n % 3], n });

describe('maintained counts on the embedded FerretDB', () => {
  it('answers a counted filter from one kept row, not from the index entries (SQL FerretDB runs)', async () => {
    for (const [name, counted] of [['sql-on', COUNTED], ['sql-off', []]] as Array<[string, string[]]>) {
      const { col, log, close } = await open(name, counted, true);
      await col.insertMany(Array.from({ length: 300 }, (_, n) => thing(n)));
      const from = fs.statSync(log).size;
      expect(await col.countDocuments({ ds: 'a' })).toBe(100);
      let counts: string[] = [];
      for (let i = 0; i < 200 && !counts.length; i++) {
        await new Promise((r) => setTimeout(r, 25)); // FerretDB writes its log asynchronously
        counts = fs.readFileSync(log, 'utf8').slice(from).split('\n').filter((l) => /^\{.*">>> SELECT.*(COUNT|_relay_counts)/.test(l)).map((l) => (JSON.parse(l) as { msg: string }).msg);
      }
      if (counted.length) expect(counts).toEqual([expect.stringMatching(/^>>> SELECT COALESCE\(\(SELECT n FROM "_relay_counts" WHERE idx = \? AND key = json_array/)]);
      else expect(counts).toEqual([expect.stringMatching(/^>>> SELECT COUNT\(\*\) FROM "things_\w+" WHERE /)]);
      await close();
    }
  });

  it('stays exact through inserts, updates that move documents between keys, replaces and deletes, also at once', async () => {
    const { col } = await open('writes', COUNTED);
    await col.insertMany(Array.from({ length: 120 }, (_, n) => thing(n)));
    await expectCountsTrue(col);
    await col.updateMany({ ds: 'a' }, { $set: { ds: 'b' } });
    await col.updateOne({ _id: id(1) }, { $set: { state: 'Open' } });
    await col.updateOne({ _id: id(2) }, { $set: { n: 99 } }); // no key changes
    await col.updateOne({ _id: id(4) }, { $unset: { ds: '' } }); // missing counts as null
    await col.replaceOne({ _id: id(5) }, { ds: 'a', bot: 'x', state: 'Closed', n: 5 });
    await col.findOneAndUpdate({ _id: id(7) }, { $set: { bot: 'y' } });
    await col.deleteMany({ n: { $lt: 10 }, ds: 'b' });
    await col.deleteOne({ _id: id(30) });
    await expectCountsTrue(col);
    // Eight writers at once: inserts, moves and deletes interleaved.
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          const n = 1000 + w * 100 + i;
          await col.insertOne(thing(n));
          if (i % 3 === 0) await col.updateOne({ _id: id(n) }, { $set: { ds: 'a', state: 'Open' } });
          if (i % 5 === 0) await col.deleteOne({ _id: id(n - 1) });
        }
      }),
    );
    await expectCountsTrue(col);
  });

  it('counts what a find matches for values of every type, arrays and missing fields included', async () => {
    const { col } = await open('types', ['mixed:ds_1__id_1']);
    const mixed = col.db.collection<{ _id: number; ds?: unknown }>('mixed');
    await mixed.createIndex({ ds: 1, _id: 1 });
    // Values that MongoDB holds equal across types (1, 1.0, Long 1) and JSON spells differently.
    const value = fc.constantFrom<unknown>('a', 'b', '', 'a"b', 1, new Double(1), new Double(2.5), Long.fromNumber(1), true, false, null,
      new ObjectId('6566a0f0c0ffee0000000001'), new Date(0), ['a', 1], { x: 1 }, undefined);
    let next = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 12 }), fc.array(value, { minLength: 1, maxLength: 4 }), async (docs, filters) => {
        await mixed.deleteMany({ _id: { $lt: next } });
        if (docs.length) await mixed.insertMany(docs.map((ds) => (ds === undefined ? { _id: next++ } : { _id: next++, ds })));
        for (const v of filters) {
          const f = { ds: v === undefined ? null : v };
          expect(await mixed.countDocuments(f), JSON.stringify(f)).toBe((await mixed.find(f).toArray()).length);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('rolls a count back with a write that fails half-way, and falls back to counting when a field holds an array', async () => {
    const { col } = await open('failed', COUNTED);
    await col.insertMany(Array.from({ length: 30 }, (_, n) => thing(n)));
    // One insert command whose last document repeats an _id: FerretDB's transaction writes none.
    await expect(col.insertMany([thing(100), thing(101), thing(3)], { ordered: true })).rejects.toThrow();
    await expectCountsTrue(col);
    // MongoDB matches an array by its elements; the kept count is keyed by whole values.
    await col.insertOne({ _id: 'arr', ds: ['a', 'b'], n: 0 });
    expect(await col.countDocuments({ ds: 'a' })).toBe((await col.find({ ds: 'a' }).toArray()).length);
    await expectCountsTrue(col);
  });

  it('counts a data directory written without the counts when reopened with them, and recounts after a spell without', async () => {
    let db = await open('upgrade', []);
    await db.col.insertMany(Array.from({ length: 90 }, (_, n) => thing(n)));
    await db.close();
    db = await open('upgrade', COUNTED);
    await expectCountsTrue(db.col);
    await db.col.deleteMany({ ds: 'a' });
    await db.close();
    // Without the counts, writes are not counted: the next start with them counts again.
    db = await open('upgrade', []);
    await db.col.insertMany(Array.from({ length: 40 }, (_, n) => thing(200 + n)));
    await db.close();
    db = await open('upgrade', COUNTED);
    await expectCountsTrue(db.col);
    expect(await db.col.countDocuments({ ds: 'a' })).toBe(Array.from({ length: 40 }, (_, n) => 200 + n).filter((n) => n % 3 === 0).length);
  });

  it("reads a hook's delivery log total, capped or exact, from the kept row under the default COUNTED_INDEXES", async () => {
    const { col, log } = await open('deliveries', COUNTED_INDEXES, true);
    const deliveries = col.db.collection<{ _id: string; webhookId: string; status: string }>('webhookdeliveries');
    await deliveries.createIndex({ webhookId: 1, _id: 1 }); // as src/webhooks/model.ts declares it
    await deliveries.insertMany(Array.from({ length: 40 }, (_, n) => ({ _id: id(n), webhookId: n % 4 ? 'h1' : 'h2', status: 'pending' })));
    // A delivery's life: attempts and settling rewrite its row, retention deletes it.
    await deliveries.updateMany({ webhookId: 'h1' }, { $set: { status: 'delivered' } });
    await deliveries.deleteMany({ _id: { $in: [id(1), id(4)] } });
    const from = fs.statSync(log).size;
    // As paginate asks for a capped total (DELIVERY_LIST_TOTAL_LIMIT + 1), and exactly.
    expect(await deliveries.countDocuments({ webhookId: 'h1' }, { limit: 11 })).toBe(11);
    expect(await deliveries.countDocuments({ webhookId: 'h1' })).toBe(29);
    expect(await deliveries.countDocuments({ webhookId: 'h2' })).toBe(9);
    let counts: string[] = [];
    for (let i = 0; i < 200 && counts.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 25)); // FerretDB writes its log asynchronously
      counts = fs.readFileSync(log, 'utf8').slice(from).split('\n').filter((l) => /^\{.*">>> SELECT.*(COUNT|_relay_counts)/.test(l)).map((l) => (JSON.parse(l) as { msg: string }).msg);
    }
    expect(counts).toHaveLength(3);
    for (const sql of counts) expect(sql).toMatch(/^>>> SELECT COALESCE\(\(SELECT n FROM "_relay_counts" WHERE idx = \? AND key = json_array/);
  });

  it('names indexes that the models declare', async () => {
    const { default: mongoose } = await import('mongoose');
    await import('../../src/modules.ts');
    const declared = new Set(
      mongoose.modelNames().flatMap((name) => {
        const model = mongoose.model(name);
        return model.schema.indexes().map(([keys, options]) => `${model.collection.collectionName}:${(options as { name?: string }).name ?? Object.entries(keys).map(([k, v]) => `${k}_${v}`).join('_')}`);
      }),
    );
    for (const name of COUNTED_INDEXES) expect(declared, name).toContain(name);
  });
});
