// The lists' reads through the driver (src/db/find.ts): the same documents a lean mongoose Query
// returns, in one batch, and an object that came from a request is matched as a value, never run
// as an operator (mongoose's sanitizeFilter), while operators wrapped with trusted() are.
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { useTestRuntime } from '../helpers/harness.ts';
import { commandsSent } from '../helpers/dbReads.ts';
import { asLong, findLean, type CursorId } from '../../src/db/find.ts';
import { trusted } from '../../src/db/connection.ts';

const Thing = mongoose.model('FindThing', new mongoose.Schema({ _id: String, group: String, n: Number, at: Date }, { versionKey: false }), 'findthings');

describe('findLean', () => {
  useTestRuntime({ worker: false, monitorCommands: true });
  beforeAll(async () => {
    const docs = Array.from({ length: 150 }, (_, i) => ({ _id: `t${String(i).padStart(3, '0')}`, group: i % 3 ? 'a' : 'b', n: i, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) }));
    await Thing.collection.insertMany(docs as never[]);
  });

  it('returns what a lean Query returns: filter, projection, sort and limit', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, 0 | 1> | undefined, Record<string, 1 | -1>, number | undefined]> = [
      [{ group: 'a' }, undefined, { _id: 1 }, 100],
      [{ group: 'b', _id: trusted({ $gte: 't030' }) }, { at: 0 }, { _id: 1 }, 20],
      [{ n: trusted({ $in: [5, 7, 140] }) }, undefined, { n: -1 }, undefined],
      [{}, { group: 1 }, { _id: -1 }, 3],
    ];
    for (const [filter, projection, sort, limit] of cases) {
      let query = Thing.find(filter, projection).sort(sort);
      if (limit) query = query.limit(limit);
      const expected = await query.lean();
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(await findLean(Thing, filter, { projection, sort, limit }), JSON.stringify(filter)).toEqual(expected);
    }
  });

  it('reads a page of 100 in one batch, with no getMore or killCursors after it', async () => {
    const sent = (await commandsSent(() => findLean(Thing, { group: trusted({ $in: ['a', 'b'] }) }, { sort: { _id: 1 }, limit: 100 }))).filter((c) => c.endsWith(' findthings') || c.startsWith('getMore') || c.startsWith('killCursors'));
    expect(sent).toEqual(['find findthings']);
  });

  it('matches an object from a request as a value, not as an operator', async () => {
    // As a request's parsed JSON could hand it over: without sanitizing it would match every row.
    const fromRequest = JSON.parse('{"$ne":"nobody"}') as unknown;
    expect(await findLean(Thing, { group: fromRequest })).toEqual([]);
    expect(await findLean(Thing, { group: 'b', $or: [{ n: fromRequest }] } as Record<string, unknown>)).toEqual([]);
    expect(await findLean(Thing, { group: trusted({ $ne: 'a' }) }, { limit: 100 })).toHaveLength(50);
  });

  it('reads the rest of a page that its first reply does not carry (a page over 16 MB on MongoDB) by getMore, in order', async () => {
    const expected = await Thing.find({ group: 'a' }).sort({ _id: 1 }).limit(10).lean();
    let page: unknown[] = [];
    const sent = await commandsSent(async () => (page = await findLean(Thing, { group: 'a' }, { sort: { _id: 1 }, limit: 10, batchSize: 4 })));
    expect(page).toEqual(expected);
    expect(sent.filter((c) => c.endsWith(' findthings'))).toEqual(['find findthings']);
    expect(sent.filter((c) => c.startsWith('getMore '))).toHaveLength(1);
  });

  it('reads every batch of a read without a limit, in order, by getMore until the server closes the cursor', async () => {
    const expected = await Thing.find({}).sort({ _id: 1 }).lean();
    let all: unknown[] = [];
    const sent = await commandsSent(async () => (all = await findLean(Thing, {}, { sort: { _id: 1 } })), { inOrder: true });
    expect(all).toEqual(expected);
    expect(expected).toHaveLength(150);
    // The first reply carries the server's default batch (101), the rest comes by getMore.
    const mine = sent.filter((c) => c.endsWith(' findthings') || c.startsWith('getMore') || c.startsWith('killCursors'));
    expect(mine[0]).toBe('find findthings');
    expect(mine.slice(1).length).toBeGreaterThan(0);
    expect(mine.slice(1).every((c) => c.startsWith('getMore '))).toBe(true);
  });

  it('closes its cursor on the server when a getMore fails half-way, and fails with that error', async () => {
    // The real database behind a Db whose first getMore fails, as a dropped connection would.
    const db = Thing.db.db!;
    let cursorId: CursorId | null = null;
    const failing = new Proxy(db, {
      get: (target, key) =>
        key !== 'command'
          ? Reflect.get(target, key)
          : async (command: Record<string, unknown>) => {
              if ('getMore' in command) throw new Error('connection dropped');
              const reply = (await target.command(command)) as { cursor?: { id: CursorId } };
              cursorId ??= reply.cursor?.id ?? null;
              return reply;
            },
    });
    const model = { db: { db: failing }, collection: Thing.collection } as unknown as typeof Thing;
    await expect(findLean(model, { group: 'a' }, { sort: { _id: 1 }, limit: 10, batchSize: 4 })).rejects.toThrow('connection dropped');
    // A getMore was sent (it threw), so the cursor was open. Killed already: the server no longer knows it.
    expect(cursorId).not.toBeNull();
    const again = (await db.command({ killCursors: 'findthings', cursors: [asLong(cursorId!)] })) as { cursorsKilled: unknown[]; cursorsNotFound: unknown[] };
    expect(again.cursorsKilled).toEqual([]);
    expect(again.cursorsNotFound).toHaveLength(1);
  });
});
