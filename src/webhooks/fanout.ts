// Event fan-out (spec "Events"): one Delivery per matching enabled hook of the event's bot, its
// deliveryId and final request bytes fixed here so every retry sends the same thing. Idempotent:
// the unique (eventId, webhookId) index makes a re-dispatched event create nothing new. Each new
// row carries the claim of its first attempt, which this process then sends (dispatcher.ts).
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../clock.ts';
import type { StoredEvent } from '../events/model.ts';
import { DeliveryModel, type Delivery, type DeliveryStatus, type Webhook } from './model.ts';
import { insertNew } from '../db/insertNew.ts';
import { buildDeliveryRequest, withDeliveryId, type BuiltRequest } from './request.ts';
import { hooksForEvents } from './service.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { hookDelaysMs, type RetrySchedule } from './retry.ts';
import type { HookHealth } from './health.ts';
import { laneOf, type HookLane } from './lanes.ts';
import type { FirstAttemptRecords, OpenFirstAttempts } from './firstAttempts.ts';

/** A delivery just created, with what its first attempt needs to be sent without reading it back. */
export interface FreshDelivery {
  delivery: Delivery;
  secret: string;
  /** The hook's `standardWebhooks` as the fan-out read it. */
  standardWebhooks?: boolean;
  /** The hook's lane limits as the fan-out read them. */
  lane: HookLane;
  /** Its batch's record of unfinished first attempts, told when this one is recorded. */
  record?: OpenFirstAttempts;
}

interface Waiting {
  event: StoredEvent;
  done: (created: FreshDelivery[]) => void;
  failed: (err: unknown) => void;
}

/**
 * Fans events out in batches: events handed in while a batch is being written share the next
 * one, which reads the hooks of all its events in one query and creates all their deliveries in
 * one insert. Per event that was a read and an insert, the largest share of the database's work
 * on a busy bus (docs/WEBHOOKS.md, "Recording").
 */
export class FanOut {
  private readonly batcher: SerialBatcher<Waiting>;

  constructor(
    private readonly ctx: Pick<AppContext, 'clock' | 'logger'>,
    /** The service's schedule; a hook's own waits replace its waits (retry.ts). */
    private readonly schedule: RetrySchedule,
    /** How long the first attempt's claim lasts: room to wait for a slot, then a whole attempt. */
    private readonly firstLeaseMs: number,
    private readonly records: FirstAttemptRecords,
    private readonly health?: HookHealth,
  ) {
    this.batcher = new SerialBatcher(64, (items) => this.run(items));
  }

  /** The event's deliveries created by this call that are due now (none when it was fanned out before). */
  add(event: StoredEvent): Promise<FreshDelivery[]> {
    return new Promise((done, failed) => this.batcher.add({ event, done, failed }));
  }

  private async run(items: Waiting[]): Promise<void> {
    try {
      // The record of the batch's first attempts goes with the hooks' read: it must be written
      // before the deliveries, and in parallel it adds no wait to the fan-out.
      const [hooks, record] = await Promise.all([hooksForEvents(items.map((i) => i.event)), this.records.open(items.map((i) => i.event.id), this.ctx.clock.now())]);
      this.health?.observe(hooks.flat());
      const planned = items.map((item, n) => hooks[n]!.map((hook) => ({ hook, doc: deliveryDocument(this.ctx, item.event, hook, timeOrderedId(), this.schedule, this.firstLeaseMs) })));
      // One insertMany, not an upsert per hook: FerretDB v1 writes are slow one by one and under
      // contention, and its $setOnInsert drops empty arrays. An existing one = fanned out before.
      // The raw collection: deliveryDocument builds every field, so mongoose's per-document
      // casting would only cost time on the busiest path.
      const docs = planned.flat().map((p) => p.doc);
      const existed = await insertNew(DeliveryModel.collection, docs);
      // Rows that existed were fanned out before: their first attempts are another run's.
      record.expect(docs.filter((doc, i) => !existed.has(i) && doc.status === 'pending').length);
      let index = 0;
      items.forEach((item, n) =>
        item.done(
          planned[n]!.flatMap(({ hook, doc }) =>
            existed.has(index++) || doc.status !== 'pending' ? [] : [{ delivery: doc as Delivery, secret: hook.secret, standardWebhooks: hook.standardWebhooks ?? false, lane: laneOf(hook), record }],
          ),
        ),
      );
    } catch (err) {
      for (const item of items) item.failed(err);
    }
  }
}

function deliveryDocument(ctx: Pick<AppContext, 'clock' | 'logger'>, event: StoredEvent, hook: Webhook, id: string, schedule: RetrySchedule, firstLeaseMs: number) {
  const now = ctx.clock.now();
  const retryDelaysMs = hookDelaysMs(hook.retryDelaysSeconds);
  const attemptLimit = schedule.withDelays(retryDelaysMs).attempts;
  const payload = withDeliveryId(event.payload as Record<string, unknown>, id);
  let built: BuiltRequest | null = null;
  let buildError: string | null = null;
  try {
    built = buildDeliveryRequest(hook, payload);
  } catch (err) {
    // Recorded as a failed delivery rather than failing the whole dispatch again and again.
    buildError = `the request could not be built: ${(err as Error).message}`;
    ctx.logger.error({ err, webhookId: hook.id, eventId: event.id }, 'webhook request could not be built');
  }
  return {
    _id: id,
    id,
    eventId: event.id,
    webhookId: hook.id,
    botId: event.botId,
    event: event.type,
    request: built?.request ?? { method: 'POST', url: hook.url, headers: {}, body: '' },
    unresolved: built?.unresolved ?? [],
    status: (built ? 'pending' : 'failed') as DeliveryStatus,
    attemptCount: 0,
    retryDelaysMs: retryDelaysMs ?? null,
    attemptLimit,
    runAfter: 0,
    nextAttemptAt: built ? now : null,
    firstClaim: built ? { startedAt: now, leaseUntil: new Date(now.getTime() + firstLeaseMs) } : null,
    fresh: !!built,
    createdAt: now,
    finishedAt: built ? null : now,
    cancelReason: buildError,
  };
}
