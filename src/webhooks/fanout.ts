// Event fan-out (spec "Events"): one Delivery per matching enabled hook of the event's bot, its
// deliveryId and final request bytes fixed here so every retry sends the same thing. Idempotent:
// the unique (eventId, webhookId) index makes a re-dispatched event create nothing new. Each new
// row carries the claim of its first attempt, which this process then sends (dispatcher.ts).
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../clock.ts';
import type { StoredEvent } from '../events/model.ts';
import { DeliveryModel, type Delivery, type DeliveryRequest, type DeliveryStatus, type Webhook } from './model.ts';
import { insertNew } from '../db/insertNew.ts';
import { storeDeliveries, type StoredDeliveries } from './storeDeliveries.ts';
import { buildDeliveryRequest, withDeliveryId, type BuiltRequest } from './request.ts';
import { DELIVERY_LIMITS, unsendableError, type RequestLimits, type UnsendableError } from './unsendable.ts';
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
    /** The rendered request's limits; tests raise them to reach the database's own. */
    private readonly limits: RequestLimits = DELIVERY_LIMITS,
  ) {
    this.batcher = new SerialBatcher(64, (items) => this.run(items));
  }

  /** The event's deliveries created by this call that are due now (none when it was fanned out before). */
  add(event: StoredEvent): Promise<FreshDelivery[]> {
    return new Promise((done, failed) => this.batcher.add({ event, done, failed }));
  }

  private async run(items: Waiting[]): Promise<void> {
    let docs: DeliveryDocument[];
    let stored: StoredDeliveries;
    let planned: Array<Array<{ hook: Webhook; doc: DeliveryDocument }>>;
    let record: OpenFirstAttempts;
    try {
      // The record of the batch's first attempts goes with the hooks' read: it must be written
      // before the deliveries, and in parallel it adds no wait to the fan-out.
      let hooks: Webhook[][];
      [hooks, record] = await Promise.all([hooksForEvents(items.map((i) => i.event)), this.records.open(items.map((i) => i.event.id), this.ctx.clock.now())]);
      this.health?.observe(hooks.flat());
      planned = items.map((item, n) => hooks[n]!.map((hook) => ({ hook, doc: deliveryDocument(this.ctx, item.event, hook, timeOrderedId(), this.schedule, this.firstLeaseMs, this.limits) })));
      // One insertMany, not an upsert per hook: FerretDB v1 writes are slow one by one and under
      // contention, and its $setOnInsert drops empty arrays. An existing one = fanned out before.
      // The raw collection: deliveryDocument builds every field, so mongoose's per-document
      // casting would only cost time on the busiest path.
      docs = planned.flat().map((p) => p.doc);
      stored = await storeDeliveries(docs);
    } catch (err) {
      // The hooks could not be read or the database is away: the sweep dispatches these events again.
      for (const item of items) item.failed(err);
      return;
    }
    const unrecorded = await this.recordRefused(items, planned, docs, stored);
    // Rows that existed were fanned out before: their first attempts are another run's. Those of an
    // event failed below are counted too, so the record stays for the sweep to send them.
    record.expect(docs.filter((doc, i) => !stored.existed.has(i) && doc.status === 'pending').length);
    let index = 0;
    items.forEach((item, n) => {
      // `docs`, not `planned`: a refused row's place there is taken by its failed record.
      const own = planned[n]!.map(({ hook }) => ({ hook, existed: stored.existed.has(index), doc: docs[index++]! }));
      const failure = unrecorded.get(n);
      if (failure !== undefined) return item.failed(failure);
      item.done(
        own.flatMap(({ hook, doc, existed }) =>
          existed || doc.status !== 'pending' ? [] : [{ delivery: doc as unknown as Delivery, secret: hook.secret, standardWebhooks: hook.standardWebhooks, lane: laneOf(hook), record }],
        ),
      );
    });
  }

  /**
   * Replaces each row the database refused by its failed record (`store_failed`), in `docs`. Returns
   * the events (by index) one of whose records could not be stored either, with the error: those
   * events fail, so the sweep dispatches them again; the other events are done.
   */
  private async recordRefused(items: Waiting[], planned: Array<Array<{ doc: DeliveryDocument }>>, docs: DeliveryDocument[], stored: StoredDeliveries): Promise<Map<number, unknown>> {
    const unrecorded = new Map<number, unknown>();
    if (!stored.refused.size) return unrecorded;
    const ownerOf = planned.flatMap((own, n) => own.map(() => n));
    const refused = [...stored.refused];
    const records = refused.map(([i, err]) => {
      const doc = docs[i]!;
      this.ctx.logger.error({ webhookId: doc.webhookId, eventId: doc.eventId, deliveryId: doc.id, error: errorName(err) }, 'webhook delivery could not be stored; recorded as failed');
      const event = items[ownerOf[i]!]!.event;
      return unsendableDocument({ id: doc.id, event, webhookId: doc.webhookId, url: doc.request.url, now: this.ctx.clock.now() }, unsendableError(err, 'store_failed'));
    });
    let again: StoredDeliveries;
    try {
      again = await storeDeliveries(records);
    } catch (err) {
      again = { existed: new Set(), refused: new Map(records.map((_, n) => [n, err])) };
    }
    refused.forEach(([i, err], n) => {
      if (again.refused.has(n)) unrecorded.set(ownerOf[i]!, err);
      // An existing row: another dispatch of the event stored this hook's delivery meanwhile.
      else if (again.existed.has(n)) stored.existed.add(i);
      else docs[i] = records[n]!;
    });
    return unrecorded;
  }
}

/** What a refused row's error was, for the log: never its message, which may quote the row. */
const errorName = (err: unknown): string => (err instanceof Error ? `${err.name}${(err as { code?: unknown }).code !== undefined ? ` ${String((err as { code?: unknown }).code)}` : ''}` : typeof err);

/** A delivery row as the fan-out writes it (fresh and pending, or failed from the start). */
export interface DeliveryDocument {
  _id: string;
  id: string;
  eventId: string;
  webhookId: string;
  botId: string;
  event: string;
  request: DeliveryRequest;
  unresolved: string[];
  status: DeliveryStatus;
  attemptCount: number;
  retryDelaysMs: number[] | null;
  attemptLimit: number;
  runAfter: number;
  nextAttemptAt: Date | null;
  firstClaim: { startedAt: Date; leaseUntil: Date } | null;
  fresh: boolean;
  createdAt: Date;
  finishedAt: Date | null;
  cancelReason: string | null;
  error: UnsendableError | null;
  /** A test send's record (testSend.ts); false on every delivery of an event. */
  test: boolean;
}

function deliveryDocument(ctx: Pick<AppContext, 'clock' | 'logger'>, event: StoredEvent, hook: Webhook, id: string, schedule: RetrySchedule, firstLeaseMs: number, limits: RequestLimits): DeliveryDocument {
  const now = ctx.clock.now();
  let built: (BuiltRequest & { retryDelaysMs?: number[]; attemptLimit: number }) | null = null;
  let error: UnsendableError | null = null;
  try {
    const retryDelaysMs = hookDelaysMs(hook.retryDelaysSeconds);
    const payload = withDeliveryId(event.payload as Record<string, unknown>, id);
    built = { ...buildDeliveryRequest(hook, payload, limits), retryDelaysMs, attemptLimit: schedule.withDelays(retryDelaysMs).attempts };
  } catch (err) {
    // Recorded as a failed delivery of this hook: failing the dispatch would fail every delivery of
    // the batch, again at each sweep (docs/WEBHOOKS.md, "Limits").
    error = unsendableError(err, 'render_failed');
    ctx.logger.warn({ webhookId: hook.id, eventId: event.id, reason: error.code }, 'webhook delivery cannot be sent; recorded as failed');
  }
  if (!built) return unsendableDocument({ id, event, webhookId: hook.id, url: hook.url, now }, error!);
  return {
    _id: id,
    id,
    eventId: event.id,
    webhookId: hook.id,
    botId: event.botId,
    event: event.type,
    request: built.request,
    unresolved: built.unresolved,
    status: 'pending',
    attemptCount: 0,
    retryDelaysMs: built.retryDelaysMs ?? null,
    attemptLimit: built.attemptLimit,
    runAfter: 0,
    nextAttemptAt: now,
    firstClaim: { startedAt: now, leaseUntil: new Date(now.getTime() + firstLeaseMs) },
    fresh: true,
    createdAt: now,
    finishedAt: null,
    cancelReason: null,
    error: null,
    test: false,
  };
}

/**
 * The row of a delivery that is never sent: failed from the start, with why (`error`). It carries
 * no request body and no claim, so no attempt, retry, sweep or resend ever sends it.
 */
export function unsendableDocument(d: { id: string; event: Pick<StoredEvent, 'id' | 'botId' | 'type'>; webhookId: string; url: string; now: Date }, error: UnsendableError): DeliveryDocument {
  return {
    _id: d.id,
    id: d.id,
    eventId: d.event.id,
    webhookId: d.webhookId,
    botId: d.event.botId,
    event: d.event.type,
    request: { method: 'POST', url: d.url, headers: {}, body: '' },
    unresolved: [],
    status: 'failed',
    attemptCount: 0,
    retryDelaysMs: null,
    attemptLimit: 0,
    runAfter: 0,
    nextAttemptAt: null,
    firstClaim: null,
    fresh: false,
    createdAt: d.now,
    finishedAt: d.now,
    cancelReason: null,
    error,
    test: false,
  };
}

/**
 * The event sweep gave the event up (src/events/service.ts): each hook it was for that has no
 * delivery of it gets a failed one (`dispatch_abandoned`) with the last error, so its log says
 * what was lost. Throws when the hooks cannot be read or a record cannot be stored: the event
 * then stays with the sweep.
 */
export async function recordAbandoned(clock: Pick<AppContext, 'clock'>['clock'], event: StoredEvent, reason: string): Promise<void> {
  const [hooks] = await hooksForEvents([event]);
  const now = clock.now();
  const error: UnsendableError = { code: 'dispatch_abandoned', message: `the event's deliveries could not be created, and the event sweep gave it up: ${reason.slice(0, 500)}` };
  // An existing row is this hook's delivery of the event (created before the failures): kept.
  await insertNew(DeliveryModel.collection, hooks!.map((hook) => unsendableDocument({ id: timeOrderedId(), event, webhookId: hook.id, url: hook.url, now }, error)));
}
