// The event bus (src/events/service.ts): events emitted together are stored in one insert into the
// outbox and moved to the events in batches once dispatched; each emit still answers for its own
// event. The sweep reads only the outbox.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import mongoose from 'mongoose';
import { trusted } from '../../src/db/connection.ts';
import { EventBus, MAX_SWEEP_TRIES } from '../../src/events/service.ts';
import { MongoNetworkError } from 'mongodb';
import { newId } from '../../src/clock.ts';
import { EventDispatchFailureModel, EventModel, UndispatchedEventModel, type StoredEvent } from '../../src/events/model.ts';

describe('event bus', () => {
  const rt = useTestRuntime();

  it('stores every event of concurrent emits once, hands each to subscribers once and moves them out of the outbox once dispatched', async () => {
    const bus = rt.runtime.ctx.events;
    const seen: string[] = [];
    let recordedWhenSeen = 0;
    bus.subscribe(async (event) => {
      if (event.botId !== 'bus-bot') return;
      seen.push(event.id);
      // Stored in the outbox before any subscriber sees it.
      if (await UndispatchedEventModel.findById(event.id).lean()) recordedWhenSeen++;
    });
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
    expect(recordedWhenSeen).toBe(20);
    expect(await UndispatchedEventModel.find({ _id: trusted({ $in: ids }) }).lean()).toEqual([]);
  });

  it('fails only the emit whose event is invalid', async () => {
    const bus = rt.runtime.ctx.events;
    const results = await Promise.allSettled([
      bus.emit({ type: 'conversation.started', teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
      bus.emit({ type: 'no.such.type' as never, teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
      bus.emit({ type: 'conversation.escalated', teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await bus.flush();
    expect((await EventModel.find({ botId: 'bus-bot-2' }).lean<StoredEvent[]>()).map((e) => e.type).sort()).toEqual(['conversation.escalated', 'conversation.started']);
  });
});

/** Events as a process leaves them when it dies after storing them and before dispatching them: in the outbox. */
async function orphansOf(botId: string, at: Date, count: number, spacingMs = 0) {
  const orphans = Array.from({ length: count }, (_, n) => ({ _id: new mongoose.Types.ObjectId(), id: newId(), type: 'conversation.started', teamId: 'sweep-team', botId, dataSourceId: null, conversationId: null, payload: { n }, createdAt: new Date(at.getTime() + n * spacingMs) }));
  await UndispatchedEventModel.collection.insertMany(orphans.map((o) => ({ _id: o.id, at: o.createdAt, event: o })) as never[]);
  return orphans;
}

describe('event bus sweep', () => {
  const rt = useTestRuntime();

  it('re-dispatches events left in the outbox, each once, retries one whose dispatch failed, and reads no dispatched event', async () => {
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
    const orphans = await orphansOf('sweep-bot', now, 3);
    await bus.flush();
    seen.length = 0;
    failOnce = new Set([orphans[1]!.id]);

    // Inside the grace period nothing is touched.
    expect(await bus.redispatchStale(30_000)).toBe(0);
    now = new Date(now.getTime() + 60_000);
    expect(await bus.redispatchStale(30_000)).toBe(2);
    expect(seen.sort()).toEqual([orphans[0]!.id, orphans[2]!.id].sort());
    await bus.flush();
    // Only the failed one stays in the outbox: the next run tries it again. The others are stored events now.
    expect((await UndispatchedEventModel.find({}).lean()).map((r) => r._id)).toEqual([orphans[1]!.id]);
    expect((await EventModel.find({ id: trusted({ $in: [orphans[0]!.id, orphans[2]!.id] }) }).sort({ createdAt: 1, id: 1 }).lean<StoredEvent[]>()).map((e) => e.id)).toEqual([orphans[0]!.id, orphans[2]!.id].sort());
    seen.length = 0;
    expect(await bus.redispatchStale(30_000)).toBe(1);
    expect(seen).toEqual([orphans[1]!.id]);
    await bus.flush();
    expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(seen).toEqual([orphans[1]!.id]);
    expect(emitted.every((e) => !seen.includes(e.id))).toBe(true);
    expect(await UndispatchedEventModel.countDocuments({})).toBe(0);
  });

  it('takes a backlog of records in batches, oldest first', async () => {
    const now = new Date('2026-02-01T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    const seen: string[] = [];
    bus.subscribe(async (event) => void seen.push(event.id));
    const orphans = await orphansOf('sweep-bot-2', new Date('2026-01-31T23:00:00Z'), 5, 1);
    const counts = [];
    for (let run = 0; run < 3; run++) {
      counts.push(await bus.redispatchStale(30_000, 2));
      await bus.flush();
    }
    expect(counts).toEqual([2, 2, 1]);
    expect(seen).toEqual(orphans.map((o) => o.id));
    expect(await bus.redispatchStale(30_000, 2)).toBe(0);
  });

  it('gives up an event that keeps failing after MAX_SWEEP_TRIES runs; the database being away never counts', async () => {
    let now = new Date('2026-03-01T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    const orphans = await orphansOf('sweep-bot-3', now, 3, 1);
    const [broken, outage] = [orphans[0]!.id, orphans[1]!.id];
    let databaseAway = true;
    const seen: string[] = [];
    bus.subscribe(async (event) => {
      if (event.id === broken) throw new Error('this event always fails');
      if (event.id === outage && databaseAway) throw new MongoNetworkError('connection closed');
      seen.push(event.id);
    });
    now = new Date(now.getTime() + 60_000);

    // The third event is dispatched on the first run; the broken one is counted each run.
    expect(await bus.redispatchStale(30_000)).toBe(1);
    await bus.flush();
    for (let run = 2; run < MAX_SWEEP_TRIES; run++) expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(seen).toEqual([orphans[2]!.id]);
    const counted = await EventDispatchFailureModel.findById(broken).lean();
    expect(counted).toMatchObject({ tries: MAX_SWEEP_TRIES - 1, lastError: 'this event always fails' });
    expect(counted!.abandonedAt ?? null).toBeNull();
    // The last try gives it up (it leaves the outbox, stored undispatched); the other fails as the database does, any number of times.
    expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(await EventDispatchFailureModel.findById(broken).lean()).toMatchObject({ tries: MAX_SWEEP_TRIES, abandonedAt: now });
    await bus.flush();
    expect(await UndispatchedEventModel.findById(broken).lean()).toBeNull();
    expect(await EventModel.findOne({ id: broken }).lean()).not.toBeNull();
    for (let run = 0; run < MAX_SWEEP_TRIES + 2; run++) expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(await EventDispatchFailureModel.findById(outage).lean()).toBeNull();
    databaseAway = false;
    expect(await bus.redispatchStale(30_000)).toBe(1);
    await bus.flush();
    expect(seen).toEqual([orphans[2]!.id, outage]);
    // Given up means not tried again.
    expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(await EventDispatchFailureModel.findById(broken).lean()).toMatchObject({ tries: MAX_SWEEP_TRIES });
  });
});

describe('event bus give-up records', () => {
  const rt = useTestRuntime();

  it('gives an event up only once every recorder has recorded it; until then the sweep keeps trying it', async () => {
    let now = new Date('2026-03-02T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    const [broken] = await orphansOf('sweep-bot-4', now, 1);
    bus.subscribe(async () => {
      throw new Error('this event always fails');
    });
    const recorded: Array<[string, string]> = [];
    let recorderWorks = false;
    bus.onAbandon(async (event, reason) => {
      if (!recorderWorks) throw new Error('the record could not be written');
      recorded.push([event.id, reason]);
    });
    now = new Date(now.getTime() + 60_000);
    for (let run = 0; run < MAX_SWEEP_TRIES + 2; run++) expect(await bus.redispatchStale(30_000)).toBe(0);
    await bus.flush();
    // Not given up: nothing recorded it, so it stays in the outbox for the next sweep.
    expect(await UndispatchedEventModel.findById(broken!.id).lean()).not.toBeNull();
    const counted = await EventDispatchFailureModel.findById(broken!.id).lean();
    expect(counted).toMatchObject({ tries: MAX_SWEEP_TRIES + 2 });
    expect(counted!.abandonedAt ?? null).toBeNull();
    expect(recorded).toEqual([]);
    recorderWorks = true;
    expect(await bus.redispatchStale(30_000)).toBe(0);
    await bus.flush();
    expect(recorded).toEqual([[broken!.id, 'this event always fails']]);
    expect(await UndispatchedEventModel.findById(broken!.id).lean()).toBeNull();
    expect(await EventDispatchFailureModel.findById(broken!.id).lean()).toMatchObject({ abandonedAt: now });
    expect(await bus.redispatchStale(30_000)).toBe(0);
    expect(recorded).toHaveLength(1);
  });
});
