// Retention (retention.ts): records of finished work older than RETENTION_DAYS go, with
// everything that hangs off them; anything still in progress, and everything newer, stays.
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { loadConfig } from '../../src/config.ts';
import { modules } from '../../src/modules.ts';
import { pruneOldRecords } from '../../src/retention.ts';
import { pruneDeliveries } from '../../src/webhooks/retention.ts';
import { EventDispatchFailureModel, EventModel, UndispatchedEventModel } from '../../src/events/model.ts';
import { AttemptModel, AttemptResultModel, DeliveryModel } from '../../src/webhooks/model.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryModel, ResyncAttemptModel, RuleOutcomeModel } from '../../src/gateway/model.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const OLD = new Date('2026-04-01T00:00:00Z'); // before the 30-day cutoff (2026-05-02)
const RECENT = new Date('2026-05-30T00:00:00Z');
const ids = async (model: mongoose.Model<never>) => (await model.find({}, { _id: 1 }).sort({ _id: 1 }).lean<Array<{ _id: string }>>()).map((d) => d._id);

describe('retention', () => {
  const rt = useTestRuntime({ worker: false });
  const prune = (days: string) => pruneOldRecords({ config: loadConfig({ RETENTION_DAYS: days }), clock: { now: () => NOW }, logger: rt.runtime.ctx.logger }, modules);

  it('deletes old events, webhook deliveries and processed gateway deliveries with what hangs off them, and keeps the rest', async () => {
    await EventModel.collection.insertMany(
      [['ev-old', OLD], ['ev-new', RECENT]].map(([id, at]) => ({ _id: new mongoose.Types.ObjectId(), id, type: 'conversation.started', teamId: 't', botId: 'b', payload: {}, createdAt: at })) as never[],
    );
    // Records of unfinished dispatch: one left long ago (given up, or retried for ever), one current.
    await UndispatchedEventModel.collection.insertMany([{ _id: 'ev-old', at: OLD }, { _id: 'ev-new', at: RECENT }] as never[]);
    await EventDispatchFailureModel.collection.insertMany([{ _id: 'ev-failed-old', tries: 5, lastError: 'x', lastAt: OLD, abandonedAt: OLD }] as never[]);

    // Settled long ago (its row as created, or settled); resent since the cutoff and still going,
    // or finished since; and a new one.
    const delivery = (id: string, createdAt: Date, nextAttemptAt: Date | null, finishedAt: Date | null) => ({ _id: id, id, webhookId: 'w', eventId: `e-${id}`, createdAt, nextAttemptAt, finishedAt });
    await DeliveryModel.collection.insertMany(
      [delivery('d-old', OLD, OLD, null), delivery('d-settled', OLD, null, OLD), delivery('d-resent', OLD, RECENT, null), delivery('d-resent-done', OLD, null, RECENT), delivery('d-new', RECENT, null, RECENT)] as never[],
    );
    for (const id of ['d-old', 'd-resent', 'd-new']) {
      await AttemptModel.collection.insertOne({ _id: `${id}#0002`, deliveryId: id, number: 2 } as never);
      await AttemptResultModel.collection.insertOne({ _id: `${id}#0002`, deliveryId: id, number: 2 } as never);
    }

    // Processed long ago; never processed; replayed and not yet processed again; processed recently.
    const received = (id: string, receivedAt: Date, processedAt: Date | null, run = 0, processedRun = processedAt ? run : -1) => ({ _id: id, id, source: 's', deliveryId: `sender-${id}`, receivedAt, processedAt, run, processedRun });
    await GatewayDeliveryModel.collection.insertMany(
      [received('g-old', OLD, OLD), received('g-unprocessed', OLD, null), received('g-replayed', OLD, OLD, 1, 0), received('g-new', RECENT, RECENT)] as never[],
    );
    for (const id of ['g-old', 'g-replayed', 'g-new']) {
      await RuleOutcomeModel.collection.insertOne({ _id: `r-${id}`, delivery: id, run: 0, rule: 'r' } as never);
      await ActionOutcomeModel.collection.insertOne({ _id: `a-${id}`, delivery: id, run: 0, rule: 'r', index: 0 } as never);
      await ActionClaimModel.collection.insertOne({ _id: `a-${id}#1`, outcome: `a-${id}`, attempt: 1, claimedAt: OLD } as never);
    }
    await ResyncAttemptModel.collection.insertMany([{ _id: 'old-slot', target: 't', hour: OLD, takenAt: OLD }, { _id: 'new-slot', target: 't', hour: RECENT, takenAt: RECENT }] as never[]);

    // RETENTION_DAYS=0 keeps everything.
    expect(await prune('0')).toEqual({});
    expect(await ids(DeliveryModel as never)).toHaveLength(5);

    expect(await prune('30')).toEqual({
      events: 1,
      undispatchedEvents: 1,
      eventDispatchFailures: 1,
      webhookDeliveries: 2,
      webhookDeliveryAttempts: 1,
      webhookDeliveryAttemptResults: 1,
      gatewayDeliveries: 1,
      gatewayDeliveryBodies: 0,
      gatewayRuleOutcomes: 1,
      gatewayActionOutcomes: 1,
      gatewayActionClaims: 1,
      gatewayResyncAttempts: 1,
      idempotencykeys: 0,
    });
    expect((await EventModel.find({}).lean()).map((e) => e.id)).toEqual(['ev-new']);
    expect(await ids(UndispatchedEventModel as never)).toEqual(['ev-new']);
    expect(await ids(EventDispatchFailureModel as never)).toEqual([]);
    expect(await ids(DeliveryModel as never)).toEqual(['d-new', 'd-resent', 'd-resent-done']);
    expect(await ids(AttemptModel as never)).toEqual(['d-new#0002', 'd-resent#0002']);
    expect(await ids(AttemptResultModel as never)).toEqual(['d-new#0002', 'd-resent#0002']);
    expect(await ids(GatewayDeliveryModel as never)).toEqual(['g-new', 'g-replayed', 'g-unprocessed']);
    expect(await ids(RuleOutcomeModel as never)).toEqual(['r-g-new', 'r-g-replayed']);
    expect(await ids(ActionOutcomeModel as never)).toEqual(['a-g-new', 'a-g-replayed']);
    expect(await ids(ActionClaimModel as never)).toEqual(['a-g-new#1', 'a-g-replayed#1']);
    expect(await ids(ResyncAttemptModel as never)).toEqual(['new-slot']);

    // A second run finds nothing more.
    expect(Object.values(await prune('30')).every((n) => n === 0)).toBe(true);
  });

  it('deletes old webhook deliveries in chunks until none is left', async () => {
    const old = Array.from({ length: 5 }, (_, i) => ({ _id: `chunk-${i}`, id: `chunk-${i}`, webhookId: 'w2', eventId: `ce-${i}`, createdAt: OLD, nextAttemptAt: null }));
    await DeliveryModel.collection.insertMany(old as never[]);
    expect(await pruneDeliveries(new Date('2026-05-02T00:00:00Z'), 2)).toMatchObject({ webhookDeliveries: 5 });
    expect(await DeliveryModel.countDocuments({ webhookId: 'w2' })).toBe(0);
  });

  it('keeps rows of one time that a chunk cannot hold apart from those it deletes, and reaches every row', async () => {
    // Seven rows of one millisecond, three of them resent since the cutoff (kept), in chunks of two.
    const rows = Array.from({ length: 7 }, (_, i) => ({ _id: `tie-${i}`, id: `tie-${i}`, webhookId: 'w3', eventId: `te-${i}`, createdAt: OLD, nextAttemptAt: i % 2 ? RECENT : null, finishedAt: null }));
    await DeliveryModel.collection.insertMany(rows as never[]);
    expect(await pruneDeliveries(new Date('2026-05-02T00:00:00Z'), 2)).toMatchObject({ webhookDeliveries: 4 });
    expect((await DeliveryModel.find({ webhookId: 'w3' }, { _id: 1 }).sort({ _id: 1 }).lean()).map((d) => d._id)).toEqual(['tie-1', 'tie-3', 'tie-5']);
  });
});
