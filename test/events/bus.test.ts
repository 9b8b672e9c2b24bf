// The event bus (src/events/service.ts): events emitted together are stored in one insert and
// marked dispatched in batches afterwards; each emit still answers for its own event.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import mongoose from 'mongoose';
import { trusted } from '../../src/db/connection.ts';
import { EventBus, MAX_SWEEP_TRIES } from '../../src/events/service.ts';
import { MongoNetworkError } from 'mongodb';
import { SweepMarkModel } from '../../src/db/sweepWindow.ts';
import { newId } from '../../src/clock.ts';
import { EventDispatchFailureModel, EventDispatchModel, EventModel, type StoredEvent } from '../../src/events/model.ts';

describe('event bus', () => {
  const rt = useTestRuntime();

  it('stores every event of concurrent emits once, hands each to subscribers once and marks them dispatched', async () => {
    const bus = rt.runtime.ctx.events;
    const seen: string[] = [];
    bus.subscribe(async (event) => void (event.botId === 'bus-bot' && seen.push(event.id)));
    const emitted = await Promise.all(
      Array.from({ length: 20 }, (_, i) => bus.emit({ type: 'conversation.started', teamId: 'bus-team', botId: 'bus-bot', payload: { n: i } })),
    );
    const ids = emitted.map((e) => e.id);
    expect(new Set(ids).size).toBe(20);
    // UUIDv7 in emit order (calls made in this order get ids in this order): dispatch rows keyed by them append to their index.
    expect(ids).toEqual([...ids].sort());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(emitted.map((e) => (e.payload as { n: number }).n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([...seen].sort()).toEqual([...ids].sort());
    await bus.flush();
    const stored = await EventModel.find({ botId: 'bus-bot' }).lean<StoredEvent[]>();
    expect(stored.map((e) => e.id).sort()).toEqual([...ids].sort());
    const marks = await EventDispatchModel.find({ _id: trusted({ $in: ids }) }).lean();
    expect(marks.map((m) => m._id).sort()).toEqual([...ids].sort());
  });

  it('fails only the emit whose event is invalid', async () => {
    const bus = rt.runtime.ctx.events;
    const results = await Promise.allSettled([
      bus.emit({ type: 'conversation.started', teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
      bus.emit({ type: 'no.such.type' as never, teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
      bus.emit({ type: 'conversation.escalated', teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await EventModel.find({ botId: 'bus-bot-2' }).lean<StoredEvent[]>()).map((e) => e.type).sort()).toEqual(['conversation.escalated', 'conversation.started']);
  });
});

describe('event bus sweep', () => {
  const rt = useTestRuntime();

  it('re-dispatches stored events that were never dispatched, each once, and retries one whose dispatch failed', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    const seen: string[] = [];
    let failOnce = new Set<string>();
    bus.subscribe(async (event) => {
      if (failOnce.delete(event.id)) throw new Error('fan-out failed');
      seen.push(event.id);
    });
    // Dispatched as usual, and three stored by a process that died before dispatching them.
    const emitted = await Promise.all([0, 1].map((n) => bus.emit({ type: 'conversation.started', teamId: 'sweep-team', botId: 'sweep-bot', payload: { n } })));
    const orphans = [2, 3, 4].map((n) => ({ _id: new mongoose.Types.ObjectId(), id: newId(), type: 'conversation.started', teamId: 'sweep-team', botId: 'sweep-bot', dataSourceId: null, conversationId: null, payload: { n }, createdAt: now, dispatchedAt: null }));
    await EventModel.collection.insertMany(orphans);
    await bus.flush();
    seen.length = 0;
    failOnce = new Set([orphans[1]!.id]);

    // Inside the grace period nothing is touched.
    expect(await bus.redispatchStale(30_000)).toBe(0);
    now = new Date(now.getTime() + 60_000);
    expect(await bus.redispatchStale(30_000)).toBe(2);
    expect(seen.sort()).toEqual([orphans[0]!.id, orphans[2]!.id].sort());
    await bus.flush();
    // The mark stopped before the failed one: the next run tries it again, and only it.
    seen.length = 0;
    expect(await bus.redispatchStale(30_000)).toBe(1);
    expect(seen).toEqual([orphans[1]!.id]);
    await bus.flush();
    expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(seen).toEqual([orphans[1]!.id]);
    expect(emitted.every((e) => !seen.includes(e.id))).toBe(true);
    // A run whose cutoff lies before the mark (a longer grace, or a worker whose clock is behind)
    // finds nothing and leaves the mark where it is.
    const mark = await SweepMarkModel.findById('events.dispatch').lean();
    expect(await bus.redispatchStale(10 * 60_000)).toBe(0);
    expect(await SweepMarkModel.findById('events.dispatch').lean()).toEqual(mark);
  });

  it('resumes after the last row of a full batch, even when a whole batch shares one millisecond', async () => {
    let now = new Date('2026-02-01T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    const seen: string[] = [];
    bus.subscribe(async (event) => void seen.push(event.id));
    const at = new Date('2026-01-31T23:00:00Z');
    const orphans = Array.from({ length: 5 }, (_, n) => ({ _id: new mongoose.Types.ObjectId(), id: newId(), type: 'conversation.started', teamId: 'sweep-team', botId: 'sweep-bot-2', dataSourceId: null, conversationId: null, payload: { n }, createdAt: at, dispatchedAt: null }));
    await EventModel.collection.insertMany(orphans);
    // Runs of two: the first three sweeps share the millisecond; the mark is the position within it.
    const counts = [];
    for (let run = 0; run < 4; run++) counts.push(await bus.redispatchStale(30_000, 2));
    await bus.flush();
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(seen.sort()).toEqual(orphans.map((o) => o.id).sort());
    now = new Date(now.getTime() + 60_000);
    expect(await bus.redispatchStale(30_000, 2)).toBe(0);
  });
  it('gives up an event that keeps failing after MAX_SWEEP_TRIES runs, so the events after it are swept; the database being away never counts', async () => {
    let now = new Date('2026-03-01T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    const orphans = [0, 1, 2].map((n) => ({ _id: new mongoose.Types.ObjectId(), id: newId(), type: 'conversation.started', teamId: 'sweep-team', botId: 'sweep-bot-3', dataSourceId: null, conversationId: null, payload: { n }, createdAt: new Date(now.getTime() + n), dispatchedAt: null }));
    await EventModel.collection.insertMany(orphans);
    const [broken, outage] = [orphans[0]!.id, orphans[1]!.id];
    let databaseAway = true;
    const seen: string[] = [];
    bus.subscribe(async (event) => {
      if (event.id === broken) throw new Error('this event always fails');
      if (event.id === outage && databaseAway) throw new MongoNetworkError('connection closed');
      seen.push(event.id);
    });
    now = new Date(now.getTime() + 60_000);

    // Batches of one: the broken event is first, so nothing after it is reached while it is retried.
    for (let run = 1; run < MAX_SWEEP_TRIES; run++) expect(await bus.redispatchStale(30_000, 1)).toBe(0);
    expect(seen).toEqual([]);
    const counted = await EventDispatchFailureModel.findById(broken).lean();
    expect(counted).toMatchObject({ tries: MAX_SWEEP_TRIES - 1, lastError: 'this event always fails' });
    expect(counted!.abandonedAt ?? null).toBeNull();
    // The last try gives it up; the next event fails as the database does, any number of times.
    expect(await bus.redispatchStale(30_000, 1)).toBe(0);
    expect(await EventDispatchFailureModel.findById(broken).lean()).toMatchObject({ tries: MAX_SWEEP_TRIES, abandonedAt: now });
    for (let run = 0; run < MAX_SWEEP_TRIES + 2; run++) expect(await bus.redispatchStale(30_000, 1)).toBe(0);
    expect(await EventDispatchFailureModel.findById(outage).lean()).toBeNull();
    databaseAway = false;
    expect(await bus.redispatchStale(30_000, 1)).toBe(1);
    expect(await bus.redispatchStale(30_000, 1)).toBe(1);
    expect(seen).toEqual([outage, orphans[2]!.id]);
    // Given up means not tried again.
    expect(await bus.redispatchStale(30_000, 1)).toBe(0);
    expect(await EventDispatchFailureModel.findById(broken).lean()).toMatchObject({ tries: MAX_SWEEP_TRIES });
  });
});
