// The shared limits under racing processes (src/db/sharedLimits.ts), on the test FerretDB with a
// client of 8 connections, so the takes reach it at once: each slot goes to one taker, a slot frees
// at its lease's end and only its holder gives it back, and a window never counts more than its tokens.
import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { SharedLimits } from '../../src/db/sharedLimits.ts';

const RACERS = 8;

describe('shared limits', () => {
  let client: MongoClient;
  let collection: Collection;
  let limits: SharedLimits;
  beforeAll(async () => {
    client = await MongoClient.connect(databaseUri(uniqueDatabaseName()), { maxPoolSize: RACERS, minPoolSize: RACERS });
    collection = client.db().collection('limits');
    limits = new SharedLimits(() => collection);
  });
  afterAll(async () => {
    await client?.db().dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('hands each slot to one taker when racers want more than there are, one or several at a time', async () => {
    await limits.ensureSlots('race', 3);
    const now = new Date();
    const won = await Promise.all(Array.from({ length: RACERS }, (_, i) => limits.takeSlots('race', 3, 1 + (i % 3), `racer-${i}`, now, 60_000)));
    // Whatever the race left free goes to a last taker; no slot went to two.
    won.push(await limits.takeSlots('race', 3, 3, 'last', now, 60_000));
    expect(won.flat().sort()).toEqual([0, 1, 2]);
    const holderOf = (index: number) => {
      const i = won.findIndex((w) => w.includes(index));
      return i === RACERS ? 'last' : `racer-${i}`;
    };
    const held = await collection.find({}).sort({ _id: 1 }).toArray();
    expect(held.map((d) => d.holder)).toEqual([0, 1, 2].map(holderOf));
    expect(await limits.takeSlots('race', 3, 3, 'later', now, 60_000)).toEqual([]);
    // Slots made twice stay one each.
    await limits.ensureSlots('race', 3);
    expect(await collection.countDocuments({})).toBe(3);
  });

  it('frees a slot when its lease runs out, and lets only its holder give it back before', async () => {
    await limits.ensureSlots('lease', 1);
    const at = Date.now();
    expect(await limits.takeSlots('lease', 1, 1, 'first', new Date(at), 1_000)).toEqual([0]);
    expect(await limits.takeSlots('lease', 1, 1, 'second', new Date(at + 999), 1_000)).toEqual([]);
    expect(await limits.takeSlots('lease', 1, 2, 'second', new Date(at + 1_000), 1_000)).toEqual([0]);
    // The first holder's late give-back leaves the second's lease alone.
    await limits.releaseSlots([{ owner: 'lease', index: 0, holder: 'first' }]);
    expect(await limits.takeSlots('lease', 1, 1, 'third', new Date(at + 1_001), 1_000)).toEqual([]);
    await limits.releaseSlots([{ owner: 'lease', index: 0, holder: 'second' }]);
    expect(await limits.takeSlots('lease', 1, 1, 'third', new Date(at + 1_001), 1_000)).toEqual([0]);
  });

  it('renews a lease only while its holder still holds it, and keeps the last mark of a process that found none free', async () => {
    await limits.ensureSlots('renew', 1);
    const at = Date.now();
    const mine = { owner: 'renew', index: 0, holder: 'first' };
    expect(await limits.takeSlots('renew', 1, 1, 'first', new Date(at), 1_000)).toEqual([0]);
    expect(await limits.renewSlots([mine], new Date(at + 900), 1_000)).toBe(true);
    expect(await limits.takeSlots('renew', 1, 1, 'second', new Date(at + 1_500), 1_000)).toEqual([]);
    expect(await limits.takeSlots('renew', 1, 1, 'second', new Date(at + 1_900), 1_000)).toEqual([0]);
    expect(await limits.renewSlots([mine], new Date(at + 2_000), 1_000)).toBe(false);
    expect(await limits.lastWanted('renew')).toBeNull();
    await limits.markWanted('renew', 'first', new Date(at));
    await limits.markWanted('renew', 'third', new Date(at + 5));
    expect(await limits.lastWanted('renew')).toMatchObject({ by: 'third', at: new Date(at + 5) });
  });

  it('counts at most a window\'s tokens across racers, starts the next window, and gives none to a window already past', async () => {
    const take = (windowStart: number) => Promise.all(Array.from({ length: RACERS }, (_, i) => limits.takeTokens('rate', 5, windowStart, 1 + (i % 2))));
    const first = await take(1_000);
    expect(first.reduce((a, b) => a + b, 0)).toBe(5);
    const next = await take(2_000);
    expect(next.reduce((a, b) => a + b, 0)).toBe(5);
    expect(await limits.takeTokens('rate', 5, 1_000, 1)).toBe(0);
  });

  it('forgets everything of one owner and nothing of another', async () => {
    await limits.ensureSlots('gone', 2);
    await limits.takeTokens('gone', 1, 0, 1);
    await limits.ensureSlots('gone2', 1);
    await limits.forget('gone');
    expect((await collection.find({ _id: { $regex: '^gone' } } as never).toArray()).map((d) => d._id)).toEqual(['gone2#s0000']);
  });
});
