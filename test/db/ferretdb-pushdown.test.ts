// Relay's patch to the embedded FerretDB (ferretdb-patch) answers filters, sorts and counts
// from SQLite indexes. It must give what FerretDB's own Go filter and sort give: the property test
// runs random documents (mixed types, arrays, null and missing fields) and random filters, sorts
// and limits against two FerretDBs of the same build, one with the pushdown off (the oracle).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { BSON, Double, Long, MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { startFerretDb } from '../../src/db/ferretdb.ts';
import { usePatchedAndOracle } from './oracle.ts';
import { sortKeyOf } from './sortKey.ts';

const { EJSON } = BSON;
/** Documents with any kind of _id (the driver types _id as an ObjectId by default). */
type AnyDoc = { _id: unknown; [key: string]: unknown };
const dbs = usePatchedAndOracle('pushdown');

// Few distinct values, so filters match, arrays hold what filters ask for, and sort keys tie.
const scalar = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(1, 'a', null, new Double(2.5)) },
  fc.constantFrom(0, 1, 2, -1, 7),
  fc.constantFrom(new Double(1), new Double(2.5), new Double(-0.5)),
  fc.constantFrom(Long.fromNumber(2), Long.fromString('9007199254740993')),
  fc.constantFrom('a', 'b', 'ab', 'a b', 'B', '', 'é', 'a"b', '6566a0f0c0ffee0000000001'),
  fc.constantFrom(new ObjectId('6566a0f0c0ffee0000000001'), new ObjectId('6566a0f0c0ffee0000000002')),
  fc.constantFrom(true, false),
  fc.constantFrom(new Date(0), new Date(1_700_000_000_000), new Date(-5)),
  fc.constant(null),
);
const value = (arrays: boolean) =>
  arrays
    ? fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.record({ x: scalar }) })
    : scalar;
const FIELDS = ['a', 'b'] as const;
const commonArray = fc.array(fc.oneof(fc.constantFrom(1, 'a', null, new Double(2.5)), scalar), { minLength: 1, maxLength: 3 });

const doc = (arrays: boolean) =>
  fc.record({ a: value(arrays), b: value(arrays), c: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ['c'] });

const condition = fc.oneof(
  scalar,
  scalar.map((v) => ({ $eq: v })),
  fc.array(scalar, { minLength: 1, maxLength: 3 }).map((vs) => ({ $in: vs })),
  fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), scalar).map(([op, v]) => ({ [op]: v })),
  fc.tuple(scalar, scalar).map(([lo, hi]) => ({ $gte: lo, $lt: hi })),
  scalar.map((v) => ({ $ne: v })),
);
const cCondition = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 2 }).map((vs) => ({ $in: vs })));
const branch = fc.record({ a: condition, b: condition, c: cCondition, _id: fc.constantFrom({ $gt: 'id-010' }, 3, { $lte: 9 }) }, { requiredKeys: ['a'] });
const filter = fc
  .tuple(fc.record({ a: condition, b: condition, c: cCondition }, { requiredKeys: [] }), fc.option(fc.array(branch, { minLength: 1, maxLength: 3 })))
  .map(([f, or]) => (or ? { ...f, $or: or } : f));
const sort = fc.constantFrom<Record<string, 1 | -1> | undefined>(
  undefined,
  { _id: 1 },
  { _id: -1 },
  { a: 1 },
  { a: -1 },
  { a: 1, _id: 1 },
  { b: -1, _id: -1 },
  { a: 1, b: 1 },
  { b: 1 },
  { c: 1, _id: 1 },
);
const INDEXES: Record<string, 1 | -1>[][] = [
  [],
  [{ a: 1 }],
  [{ a: 1, _id: 1 }],
  [{ a: 1, b: 1 }, { b: -1, _id: 1 }],
  [{ c: 1, a: 1, _id: 1 }, { b: 1 }],
  [{ c: 1, _id: 1 }, { a: 1, b: -1 }],
  [{ c: 1, a: 1 }],
];


async function run(col: Collection<AnyDoc>, f: Document, s: Record<string, 1 | -1> | undefined, limit: number) {
  let cursor = col.find(f);
  if (s) cursor = cursor.sort(s);
  if (limit) cursor = cursor.limit(limit);
  // Counts with a limit too (the admin delivery lists cap their totals so), as countDocuments and as the count command.
  const capped = [await col.countDocuments(f, { limit: 2 }), (await col.db.command({ count: col.collectionName, query: f, limit: 2 })).n];
  return { docs: await cursor.toArray(), count: await col.countDocuments(f), capped };
}

async function compare(docs: Document[], indexes: Record<string, 1 | -1>[], queries: [Document, Record<string, 1 | -1> | undefined, number][]) {
  const name = `c${Math.random().toString(36).slice(2, 10)}`;
  const on = dbs.patched.db('pushdown').collection<AnyDoc>(name);
  const off = dbs.oracle.db('pushdown').collection<AnyDoc>(name);
  for (const col of [on, off]) {
    for (const index of indexes) await col.createIndex(index);
    if (docs.length) await col.insertMany(docs.map((d, i) => ({ _id: i % 3 ? `id-${String(i).padStart(3, '0')}` : i, ...d })));
  }
  try {
    for (const [f, s, limit] of queries) {
      const [got, want] = await Promise.all([run(on, f, s, limit), run(off, f, s, limit)]);
      const what = `filter ${EJSON.stringify(f)} sort ${JSON.stringify(s)} limit ${limit} indexes ${JSON.stringify(indexes)}`;
      expect(got.count, what).toBe(want.count);
      expect(got.capped, what).toEqual(want.capped);
      // Same documents in an order with the same sort keys (ties may come in another order)...
      expect(got.docs.map((d) => sortKeyOf(d, s)), what).toEqual(want.docs.map((d) => sortKeyOf(d, s)));
      // ...and, when the whole result came back, the same set.
      if (!limit) expect(got.docs.map((d) => EJSON.stringify(d)).sort(), what).toEqual(want.docs.map((d) => EJSON.stringify(d)).sort());
    }
    // findAndModify takes the same sort (Agenda locks its next job so); last, since a tie may
    // update another document on each side.
    const [f, s] = queries.find(([, s]) => s) ?? [];
    if (s) {
      const take = (col: Collection<AnyDoc>) => col.findOneAndUpdate(f!, { $set: { taken: true } }, { sort: s, returnDocument: 'before' });
      const [got, want] = await Promise.all([take(on), take(off)]);
      const what = `findOneAndUpdate filter ${EJSON.stringify(f)} sort ${JSON.stringify(s)} indexes ${JSON.stringify(indexes)}`;
      expect(got && sortKeyOf(got, s), what).toEqual(want && sortKeyOf(want, s));
    }
  } finally {
    await Promise.all([on.drop(), off.drop()]);
  }
}

describe('Relay pushdown on the embedded FerretDB', () => {
  // A fixed seed by default, so a run is reproducible; PUSHDOWN_SEED=random explores new cases.
  const PROPERTY_SEED = process.env.PUSHDOWN_SEED === 'random' ? {} : { seed: Number(process.env.PUSHDOWN_SEED ?? 20261204) };

  it('gives what FerretDB gives without it, over random documents, filters, sorts and limits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean().chain((arrays) => fc.array(doc(arrays), { maxLength: 40 })),
        fc.constantFrom(...INDEXES),
        fc.array(fc.tuple(filter, sort, fc.constantFrom(0, 1, 3)), { minLength: 1, maxLength: 8 }),
        (docs, indexes, queries) => compare(docs, indexes, queries),
      ),
      { numRuns: Number(process.env.PUSHDOWN_RUNS ?? 60), ...PROPERTY_SEED },
    );
  }, 300_000);

  // The patch keeps its probes' answers (relay_probe_cache.go): queries first over documents whose
  // fields are scalars, so "no array" answers are kept, then writes that bring arrays and embedded
  // documents (inserts, updates of the scalar ones, upserts), then the queries again.
  it('gives what FerretDB gives when arrays arrive after the queries, by insert, update and upsert', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(doc(false), { minLength: 1, maxLength: 20 }),
        // arrays at most fields, of the values filters ask for most, so a kept "no array" would be wrong often
        fc.array(fc.record({ a: fc.oneof(scalar, commonArray, commonArray), b: fc.oneof(value(true), commonArray), c: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 10 }),
        fc.constantFrom(...INDEXES.filter((set) => set.some((index) => Object.keys(index)[0] === 'a'))),
        fc.array(fc.tuple(filter, sort, fc.constantFrom(0, 1, 3)), { minLength: 2, maxLength: 6 }),
        // one kind of write a run, so one kind's arrays are not dropped by another's
        fc.constantFrom('insert', 'update', 'upsert'),
        async (first, later, indexes, queries, kind) => {
          const name = `w${Math.random().toString(36).slice(2, 10)}`;
          const sides = [dbs.patched, dbs.oracle].map((c) => c.db('pushdown').collection<AnyDoc>(name));
          const check = async () => {
            for (const [f, s, limit] of queries) {
              const [got, want] = await Promise.all(sides.map((col) => run(col, f, s, limit)));
              const what = `filter ${EJSON.stringify(f)} sort ${JSON.stringify(s)} limit ${limit} indexes ${JSON.stringify(indexes)}`;
              expect(got!.count, what).toBe(want!.count);
              expect(got!.docs.map((d) => sortKeyOf(d, s)), what).toEqual(want!.docs.map((d) => sortKeyOf(d, s)));
              if (!limit) expect(got!.docs.map((d) => EJSON.stringify(d)).sort(), what).toEqual(want!.docs.map((d) => EJSON.stringify(d)).sort());
            }
          };
          try {
            for (const col of sides) {
              for (const index of indexes) await col.createIndex(index);
              await col.insertMany(first.map((d, i) => ({ _id: `f-${i}`, ...d })));
            }
            await check();
            for (const col of sides) {
              for (const [i, d] of later.entries()) {
                if (kind === 'insert') await col.insertOne({ _id: `l-${i}`, ...d });
                else if (kind === 'update') await col.updateOne({ _id: `f-${i % first.length}` } as Document, { $set: d });
                else await col.updateOne({ _id: `u-${i}` } as Document, { $set: d }, { upsert: true });
              }
            }
            await check();
          } finally {
            await Promise.all(sides.map((col) => col.drop()));
          }
        },
      ),
      { numRuns: Number(process.env.PUSHDOWN_RUNS ?? 60), ...PROPERTY_SEED },
    );
  }, 300_000);

  it('keeps documents whose field is an array holding the value, inside $or too', async () => {
    await compare(
      [{ a: [1, 2], c: 0 }, { a: 1, c: 1 }, { a: 5, c: 2 }],
      [{ a: 1 }],
      [
        [{ a: 1 }, undefined, 0],
        [{ $or: [{ a: 1 }, { _id: { $gt: 'id-010' } }] }, { _id: 1 }, 0],
      ],
    );
  });

  // Seed 819413255 of the property above: [2.5] sorts as 2.5 (an array by its least element
  // ascending, its greatest descending), so the two tie and either may come first.
  it('ties an array with the element it sorts by, and leaves a sort over a set holding arrays to Go', async () => {
    expect(sortKeyOf({ b: [7, 2.5] }, { b: 1 })).toBe(sortKeyOf({ b: 2.5 }, { b: 1 }));
    expect(sortKeyOf({ b: [7, 2.5] }, { b: -1 })).toBe(sortKeyOf({ b: 7 }, { b: -1 }));
    expect(sortKeyOf({ b: [] }, { b: 1 })).not.toBe(sortKeyOf({}, { b: 1 }));
    const mixed = [{ c: 0 }, { a: 2, b: [2.5], c: 2 }, { a: true, b: 2.5, c: 0 }, { b: [7, 'a'], c: 0 }, { b: [], c: 0 }, { b: 1, c: 1 }, { b: 'a', c: 1 }];
    await compare(mixed, [{ c: 1, _id: 1 }, { a: 1, b: -1 }], [[{ c: { $in: [0, 2] } }, { b: 1 }, 0], [{ c: { $in: [0, 2] } }, { b: -1 }, 0]]);
    // An index that yields the sort: SQLite would order an array by its JSON text, so the patch sorts
    // in Go where the set holds one, and in SQL where it holds none.
    const queries: [Document, Record<string, 1 | -1>, number][] = [[{ c: 0 }, { b: 1 }, 0], [{ c: 0 }, { b: -1 }, 2], [{ c: 1 }, { b: 1 }, 0]];
    await compare(mixed, [{ c: 1, b: 1 }], queries);
    const col = dbs.patched.db('pushdown').collection<AnyDoc>('arraysort');
    await col.createIndex({ c: 1, b: 1 });
    await col.insertMany(mixed.map((d, i) => ({ _id: i, ...d })));
    const pushed = await Promise.all(queries.map(async ([f, s]) => (await col.find(f).sort(s).explain()).sortPushdown as boolean));
    expect(pushed).toEqual([false, false, true]);
  });

  it('reads a tenant page and count from the index (SQLite plan)', async () => {
    const col = dbs.patched.db('pushdown').collection<{ _id: string; ds: string; n: number }>('plan');
    await col.createIndex({ ds: 1, _id: 1 });
    await col.insertMany(Array.from({ length: 2000 }, (_, n) => ({ _id: `r-${String(n).padStart(5, '0')}`, ds: n < 1990 ? 'big' : 'small', n })));
    const explain = await col.find({ ds: 'small', _id: { $gt: 'r-01995' } }).sort({ _id: 1 }).limit(2).explain();
    const plan = JSON.stringify(explain.queryPlanner);
    expect(plan).toMatch(/SEARCH plan_\w+ USING INDEX plan_\w+_ds_1__id_1/);
    expect(plan).not.toContain('TEMP B-TREE');
    expect(explain).toMatchObject({ filterPushdown: true, sortPushdown: true });
    expect(await col.find({ ds: 'small', _id: { $gt: 'r-01995' } }).sort({ _id: 1 }).limit(2).toArray()).toEqual([
      { _id: 'r-01996', ds: 'small', n: 1996 },
      { _id: 'r-01997', ds: 'small', n: 1997 },
    ]);
    expect(await col.countDocuments({ ds: 'big' })).toBe(1990);
    const byId = JSON.stringify((await col.find({ _id: 'r-01999' }).explain()).queryPlanner);
    expect(byId).toMatch(/USING INDEX plan_\w+__id_/);
  });

  it('stops a count with a limit at the limit-th index entry, in SQL that reads no document', async () => {
    const logged = await startFerretDb({ dataDir: path.join(dbs.dir, 'logged'), database: 'pushdown', logSql: true });
    const client = await new MongoClient(logged.uri).connect();
    try {
      const col = client.db('pushdown').collection<{ _id: string; ds: string; n: number }>('capped');
      await col.createIndex({ ds: 1, _id: 1 });
      await col.insertMany(Array.from({ length: 2000 }, (_, n) => ({ _id: `r-${String(n).padStart(5, '0')}`, ds: n < 1990 ? 'big' : 'small', n })));
      const log = path.join(dbs.dir, 'logged', 'ferretdb.log');
      /** The SELECTs FerretDB logged for `count` (it writes its log asynchronously: waits for `counts` COUNT statements). */
      const statementsOf = async (count: () => Promise<number>, want: number, counts: number) => {
        const from = fs.statSync(log).size;
        expect(await count()).toBe(want);
        let statements: Array<{ sql: string; args: unknown[] }> = [];
        for (let i = 0; i < 200 && statements.filter((s) => s.sql.includes('COUNT')).length < counts; i++) {
          await new Promise((r) => setTimeout(r, 25));
          statements = fs.readFileSync(log, 'utf8').slice(from).split('\n').filter((l) => l.includes('>>> SELECT'))
            .map((l) => JSON.parse(l) as { msg: string; args?: unknown[] }).map((e) => ({ sql: e.msg.slice(4).trim(), args: e.args ?? [] }));
        }
        // Besides the counts, only the array probes (index seeks): no statement reads documents.
        expect(statements.filter((s) => !s.sql.includes('COUNT')).every((s) => s.sql.startsWith('SELECT EXISTS('))).toBe(true);
        return statements.filter((s) => s.sql.includes('COUNT'));
      };
      const skipTo = /^SELECT COUNT\(\*\) FROM \(SELECT 1 FROM "capped_\w+" WHERE .* LIMIT 1 OFFSET \?\)$/;
      // 1,990 matches: the 11th is found by skipping 10 index entries, and nothing counts the rest.
      const big = await statementsOf(() => col.countDocuments({ ds: 'big' }, { limit: 11 }), 11, 1);
      expect(big).toHaveLength(1);
      expect(big[0]!.sql).toMatch(skipTo);
      expect(big[0]!.args.at(-1)).toBe(10);
      // 10 matches: no 11th, so they are counted (fewer than the limit).
      const small = await statementsOf(() => col.countDocuments({ ds: 'small' }, { limit: 11 }), 10, 2);
      expect(small.map((s) => s.sql)).toEqual([expect.stringMatching(skipTo), expect.stringMatching(/^SELECT COUNT\(\*\) FROM "capped_\w+" WHERE /)]);
    } finally {
      await client.close();
      await logged.stop();
    }
  });

  it('ranges over the next key of an index after a null equality (SQLite plan), missing fields included', async () => {
    const col = dbs.patched.db('pushdown').collection<{ _id: string; done?: Date | null; at: number }>('nullplan');
    await col.createIndex({ done: 1, at: 1 });
    // Most rows done; the waiting ones have done null or no done at all (older rows).
    await col.insertMany(Array.from({ length: 600 }, (_, n) => (n % 100 === 0 ? { _id: `w-${n}`, at: n } : { _id: `w-${n}`, done: n % 100 === 1 ? null : new Date(n), at: n })));
    const explain = await col.find({ done: null, at: { $lt: 250 } }).explain();
    const plan = JSON.stringify(explain.queryPlanner);
    // Both columns of `done` pinned (rank and IS NULL), then a range on `at`: what waits and is due, not what waits.
    expect(plan).toMatch(/USING INDEX nullplan_\w+_done_1_at_1 \(<expr>=\? AND <expr>=\? AND <expr>=\? AND <expr><\?\)/);
    expect((await col.find({ done: null, at: { $lt: 250 } }).sort({ at: 1 }).toArray()).map((d) => d._id)).toEqual(['w-0', 'w-1', 'w-100', 'w-101', 'w-200', 'w-201']);
  });

  it('rebuilds the indexes of a data directory an unpatched FerretDB wrote, and answers from them', async () => {
    const old = path.join(dbs.dir, 'old');
    let db = await startFerretDb({ dataDir: old, database: 'old', pushdown: false });
    let client = await new MongoClient(db.uri).connect();
    const docs = Array.from({ length: 500 }, (_, n) => ({ _id: `m-${String(n).padStart(4, '0')}`, conv: `c-${n % 5}`, n }));
    try {
      await client.db('old').collection<AnyDoc>('msgs').createIndex({ conv: 1, _id: 1 });
      await client.db('old').collection<AnyDoc>('msgs').insertMany(docs);
      const before = await client.db('old').collection<AnyDoc>('msgs').find({ conv: 'c-1' }).sort({ _id: 1 }).explain();
      expect(JSON.stringify(before.queryPlanner)).toContain('SCAN');
    } finally {
      await client.close();
      await db.stop();
    }
    db = await startFerretDb({ dataDir: old, database: 'old' });
    client = await new MongoClient(db.uri).connect();
    try {
      const col = client.db('old').collection<AnyDoc>('msgs');
      const after = await col.find({ conv: 'c-1' }).sort({ _id: 1 }).limit(3).explain();
      expect(JSON.stringify(after.queryPlanner)).toMatch(/SEARCH msgs_\w+ USING INDEX msgs_\w+_conv_1__id_1/);
      expect(await col.find({ conv: 'c-1' }).sort({ _id: 1 }).limit(3).toArray()).toEqual(docs.filter((d) => d.conv === 'c-1').slice(0, 3));
      expect(await col.countDocuments({ conv: 'c-1' })).toBe(100);
      expect((await col.listIndexes().toArray()).map((i) => i.name).sort()).toEqual(['_id_', 'conv_1__id_1']);
    } finally {
      await client.close();
      await db.stop();
    }
  });
});
