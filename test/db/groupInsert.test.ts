// Group-committed inserts (src/db/groupInsert.ts), on the real database: inserts made together share
// few insertMany commands, each caller learns whether its own document went in or already existed,
// and a document the database refuses fails its own caller only.
import { describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { GroupInsert } from '../../src/db/groupInsert.ts';
import { isTransientDatabaseError } from '../../src/db/errors.ts';
import { useTestRuntime } from '../helpers/harness.ts';

function countingCollection(name: string) {
  const collection = mongoose.connection.db!.collection(name);
  const commands: number[] = [];
  return {
    collection,
    commands,
    target: {
      insertMany(docs: never[], options: { ordered: false }) {
        commands.push(docs.length);
        return collection.insertMany(docs, options);
      },
    },
  };
}

describe('GroupInsert', () => {
  useTestRuntime();

  it('inserts documents arriving together in few commands, and tells each caller whether its key was new', async () => {
    const { collection, commands, target } = countingCollection('groupinsert_keys');
    const inserts = new GroupInsert(target, { lanes: 2 });
    const docs = [...Array.from({ length: 20 }, (_, i) => ({ _id: `u${i}` })), ...Array.from({ length: 10 }, () => ({ _id: 'same' }))];
    const results = await Promise.all(docs.map((d) => inserts.insert({ ...d })));

    expect(results.slice(0, 20).every((r) => r === true)).toBe(true);
    expect(results.slice(20).filter((r) => r === true)).toHaveLength(1);
    expect(await collection.countDocuments({})).toBe(21);
    // Two batches left at once (the lanes), the other 28 waited and went out together.
    expect(commands).toEqual([1, 1, 28]);
  });

  it('fails only the caller whose document the database refuses', async () => {
    const { collection, target } = countingCollection('groupinsert_refused');
    const inserts = new GroupInsert(target, { lanes: 1 });
    const first = inserts.insert({ _id: 'first' });
    // Queued behind the first: these three go out in one command.
    const batch = [inserts.insert({ _id: 'ok-1' }), inserts.insert({ _id: ['an', 'array'] }), inserts.insert({ _id: 'ok-2' })];
    expect(await first).toBe(true);
    const settled = await Promise.allSettled(batch);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await collection.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual(['first', 'ok-1', 'ok-2']);
  });

  it('stores each document after its companion, and leaves no companion of a duplicate or a refused document', async () => {
    const { collection, target } = countingCollection('groupinsert_documents');
    const companions = mongoose.connection.db!.collection('groupinsert_companions');
    const inserts = new GroupInsert(target, { lanes: 1, first: companions });
    const first = inserts.insert({ _id: 'taken' }, { _id: 'c-taken' });
    // Queued behind the first: these four go out together.
    const batch = [
      inserts.insert({ _id: 'fresh' }, { _id: 'c-fresh' }),
      inserts.insert({ _id: 'taken' }, { _id: 'c-duplicate' }),
      inserts.insert({ _id: ['an', 'array'] }, { _id: 'c-refused' }),
      inserts.insert({ _id: 'companion-refused' }, { _id: ['an', 'array'] }),
    ];
    expect(await first).toBe(true);
    const settled = await Promise.allSettled(batch);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : s.status))).toEqual([true, false, 'rejected', 'rejected']);
    expect((await collection.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual(['fresh', 'taken']);
    expect((await companions.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual(['c-fresh', 'c-taken']);
  });

  it('gives up a command that never settles after its bound, as a transient error, and frees its lane', async () => {
    const { collection } = countingCollection('groupinsert_hung');
    // Created up front: the first insert into a new collection also creates it, and on a busy
    // machine that alone may take longer than a short bound.
    await collection.insertOne({ _id: 'existing' as never });
    let calls = 0;
    const inserts = new GroupInsert(
      {
        // The first command hangs for good, as one written to a destroyed socket does.
        insertMany: (docs, options) => (calls++ === 0 ? new Promise(() => undefined) : collection.insertMany(docs, options)),
      },
      // Long enough for a real insert on a loaded CI machine; the hung command always reaches it.
      { lanes: 1, timeoutMs: 2_000 },
    );
    const hung = inserts.insert({ _id: 'hung' });
    const next = inserts.insert({ _id: 'next' });
    const err = await hung.catch((e: unknown) => e);
    expect(isTransientDatabaseError(err)).toBe(true);
    expect(await next).toBe(true);
    expect((await collection.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual(['existing', 'next']);
  });

  it('fails every caller of a command that fails as a whole, then carries on', async () => {
    const { collection } = countingCollection('groupinsert_down');
    let down = true;
    const inserts = new GroupInsert({
      insertMany: (docs, options) => (down ? Promise.reject(new Error('database away')) : collection.insertMany(docs, options)),
    });
    const failed = await Promise.allSettled([inserts.insert({ _id: 'a' }), inserts.insert({ _id: 'b' })]);
    expect(failed.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    down = false;
    expect(await inserts.insert({ _id: 'c' })).toBe(true);
    await inserts.drained();
    expect(await collection.countDocuments({})).toBe(1);
  });
});
