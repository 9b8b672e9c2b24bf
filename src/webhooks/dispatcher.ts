// Runs first attempts in the process that created the deliveries, right away, instead of waiting
// for a worker to poll Agenda (spec issue: "first attempt must not wait for the poll interval").
//
// New deliveries take a batched path, because on FerretDB v1 one write costs about 1 ms while an
// `insertMany` costs about 0.1 ms a document (docs/WEBHOOKS.md, "Recording"): their claims came
// with the delivery rows (the fan-out wrote them), their results go out in one insert per batch. A
// success leaves the delivery row as created (`fresh`): its result row is the record, readers take
// the state from it (attempts.ts) and the sweep checks fresh rows in bulk. Any other outcome is
// settled onto the row afterwards in bulk, and a failure gets its retry on Agenda. Anything lost
// here (crash, database trouble) stays in the database for the sweep job to find. Each hook has
// its own lane (lanes.ts): a cap on its attempts in flight and an optional rate, so a hook whose
// endpoint hangs for the whole timeout holds only its own slots. The cap and the rate hold across
// every process on the database: an attempt starts only on a slot (and with a token) this process
// took from the hook's shared ones (fleetLimits.ts).
import { bulkWriteInBatches, SERIAL_WRITE_BATCH } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { deliveries as deliveriesMetric } from '../observability/metrics.ts';
import { insertResults, settlement } from './attempts.ts';
import { perform, resultOf, scheduleDelivery, type DeliveryDeps } from './delivery.job.ts';
import type { FreshDelivery } from './fanout.ts';
import type { OpenFirstAttempts } from './firstAttempts.ts';
import { DeliveryModel, WebhookModel, type AttemptResult, type Delivery } from './model.ts';
import { signedRequest } from './request.ts';
import { laneOf, Lanes, type HookLane, type LaneSettings } from './lanes.ts';
import { FleetLimits } from './fleetLimits.ts';
import type { SharedLimits } from '../db/sharedLimits.ts';

type Item = { first: FreshDelivery } | { deliveryId: string };

/** A delivery to attempt again (resend, retry), with its hook's lane limits. */
export interface Kick {
  id: string;
  webhookId: string;
  lane: HookLane;
}

const RESULT_BATCH = 256;
const LATE_WARNING_EVERY_MS = 10_000;

interface Ended {
  delivery: Delivery;
  result: AttemptResult;
  record?: OpenFirstAttempts;
}

export class DeliveryDispatcher {
  /** New deliveries (their first attempts claimed) and resends, per hook, waiting for a slot. */
  private readonly lanes: Lanes<Item>;
  private wakeTimer: NodeJS.Timeout | null = null;
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  /** First attempts that waited past their claim since the last warning, and when that was. */
  private late = 0;
  private lateWarnedAt = -Infinity;
  private readonly results: SerialBatcher<Ended>;
  private readonly settles: SerialBatcher<Ended>;
  private readonly limits: FleetLimits;
  private readonly mayStart = (key: string, settings: LaneSettings) => this.limits.mayStart(key, settings);

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly concurrency: number,
    /** A hook's attempts in flight at once unless it sets its own (WEBHOOK_HOOK_CONCURRENCY), across the fleet. */
    private readonly hookConcurrency: number,
    /** The hooks' slots and rate windows shared by every process on the database. */
    shared: SharedLimits,
  ) {
    this.lanes = new Lanes(() => this.deps.ctx.clock.now().getTime());
    const { clock, logger, jobs } = deps.ctx;
    this.limits = new FleetLimits(shared, { clock, logger, leaseMs: deps.leaseMs, holder: jobs.attrs.name ?? 'relay', wake: () => this.pump() });
    this.results = new SerialBatcher(RESULT_BATCH, (items) => this.recordResults(items), () => this.wakeIfIdle());
    this.settles = new SerialBatcher(RESULT_BATCH, (items) => this.settle(items), () => this.wakeIfIdle());
  }

  /** Sends the first attempt of each new delivery as soon as a slot is free; does not wait for them. */
  dispatch(deliveries: FreshDelivery[]): void {
    for (const first of deliveries) this.lanes.add(first.delivery.webhookId, { first }, this.settingsOf(first.lane));
    this.pump();
  }

  /** Starts the due attempt of each delivery as soon as its lane has a slot; does not wait for them. */
  kick(deliveries: Kick[]): void {
    for (const d of deliveries) this.lanes.add(d.webhookId, { deliveryId: d.id }, this.settingsOf(d.lane));
    this.pump();
  }

  private settingsOf(lane: HookLane): LaneSettings {
    return { concurrency: lane.concurrency ?? this.hookConcurrency, ratePerSecond: lane.ratePerSecond };
  }

  /** Runs one delivery's due attempt now and waits for it, outside the hook's lane and limits (tests). */
  async runNow(deliveryId: string): Promise<void> {
    this.running++;
    try {
      await this.attempt(deliveryId);
    } finally {
      this.release();
    }
  }

  /** Resolves once nothing is queued, running or waiting to be recorded (shutdown, benchmarks). */
  async idle(timeoutMs = 30_000): Promise<void> {
    if (this.isIdle()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Gives back the hooks' slots this process holds (shutdown, after idle()). */
  close(): Promise<void> {
    return this.limits.close();
  }

  private isIdle(): boolean {
    return this.running === 0 && !this.lanes.size && this.results.idle && this.settles.idle;
  }

  private wakeIfIdle(): void {
    if (this.isIdle()) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private release(): void {
    this.running--;
    this.pump();
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const next = this.lanes.take(this.mayStart);
      if (!next) break;
      this.running++;
      const { key, item } = next;
      const slot = this.limits.start(key, next.settings);
      const run = 'first' in item ? this.firstAttempt(item.first) : this.attempt(item.deliveryId);
      void run.finally(() => {
        this.lanes.done(key);
        this.limits.end(key, slot, this.lanes.waitingIn(key) > 0);
        this.release();
      });
    }
    // Lanes with work beyond the slots they hold ask the fleet for more (answered by a later pump).
    const room = this.concurrency - this.running;
    if (room > 0) for (const lane of this.lanes.waitingLanes()) this.limits.want(lane.key, lane.settings, lane.waiting, room);
    // Lanes held back by their rate only: come back when the first may start.
    const wake = this.running < this.concurrency ? this.lanes.wakeIn() : null;
    if (wake !== null && !this.wakeTimer) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        this.pump();
      }, Math.max(1, wake));
    }
    this.wakeIfIdle();
  }

  private async attempt(deliveryId: string): Promise<void> {
    try {
      const outcome = await perform(this.deps, deliveryId);
      if (!outcome.done) await scheduleDelivery(this.deps.ctx.jobs, deliveryId, outcome.retryAt);
    } catch (err) {
      this.deps.ctx.logger.error({ err, deliveryId }, 'webhook delivery attempt failed to run; the sweep will retry it');
    }
  }

  private async firstAttempt({ delivery, secret, standardWebhooks, record }: FreshDelivery): Promise<void> {
    const { clock, logger } = this.deps.ctx;
    // Waited so long for a slot that the attempt might outlast its claim: the claim's runner would
    // then look dead to others. Left to perform(), which takes the next attempt once it ran out;
    // its batch's record stays for the sweep, which hands the row over if it is still fresh.
    if (clock.now().getTime() + this.deps.leaseMs > (delivery.firstClaim?.leaseUntil?.getTime() ?? 0)) {
      this.noteLate(delivery.id);
      return this.attempt(delivery.id);
    }
    try {
      const request = signedRequest(delivery.request, { secret, deliveryId: delivery.id, event: delivery.event, now: clock.now(), standardWebhooks });
      const res = await this.deps.outbound.send(request);
      this.results.add({ delivery, result: resultOf(this.deps, delivery, 1, res, clock.now()), record });
    } catch (err) {
      logger.error({ err, deliveryId: delivery.id }, 'webhook first attempt failed to run; the sweep will retry it');
    }
  }

  /**
   * Only a backlog makes first attempts late, and then thousands at once: one warning per
   * LATE_WARNING_EVERY_MS with how many there were since the last, not one line per delivery.
   */
  private noteLate(deliveryId: string): void {
    this.late++;
    const now = this.deps.ctx.clock.now().getTime();
    if (now - this.lateWarnedAt < LATE_WARNING_EVERY_MS) return;
    this.deps.ctx.logger.warn(
      { deliveries: this.late, lastDeliveryId: deliveryId },
      'webhook first attempts waited past their claim; each runs as the next attempt once its claim runs out',
    );
    this.late = 0;
    this.lateWarnedAt = now;
  }

  private async recordResults(items: Ended[]): Promise<void> {
    let recorded: Set<string>;
    try {
      recorded = await insertResults(items.map((e) => e.result));
    } catch (err) {
      // The claims stay without results: once their lease runs out, the sweep's run records them
      // interrupted and sends again (at least once).
      this.deps.ctx.logger.error({ err, results: items.length }, 'webhook attempt results could not be recorded');
      return;
    }
    for (const ended of items) {
      if (!recorded.has(ended.result._id)) continue;
      const succeeded = ended.result.status === 'succeeded';
      deliveriesMetric.inc({ outcome: succeeded ? 'succeeded' : 'failed', attempt: '1', test: 'false' });
      // Cached per hook: a success of a healthy hook writes nothing (health.ts).
      void this.deps.health?.record(ended.delivery.webhookId, succeeded, ended.result.finishedAt);
      // On FerretDB an update costs about four times a document of an insert: most first attempts
      // succeed, and their row needs none (docs/WEBHOOKS.md, "Recording").
      if (!succeeded) this.settles.add(ended);
      else ended.record?.done();
    }
  }

  /** Copies failed results onto the delivery rows and hands them their retry on Agenda. */
  private async settle(items: Ended[]): Promise<void> {
    const { jobs, logger } = this.deps.ctx;
    const settled = items.map(({ delivery, result }) => ({ id: delivery.id, ...settlement(delivery, result) }));
    try {
      // One settle in flight at a time, so it may use larger commands (connection.ts).
      await bulkWriteInBatches(
        DeliveryModel.collection,
        settled.map(({ id, ...set }) => ({ updateOne: { filter: { _id: id }, update: { $set: { ...set, fresh: false } } } })),
        SERIAL_WRITE_BATCH,
      );
      // Settled rows are no longer fresh: the sweep's overdue range covers them from here.
      for (const item of items) item.record?.done();
    } catch (err) {
      // Readers go by the results meanwhile; the sweep settles what is left.
      logger.error({ err, deliveries: items.length }, 'webhook deliveries could not be settled; the sweep will');
    }
    for (const s of settled) {
      if (!s.nextAttemptAt) continue;
      await scheduleDelivery(jobs, s.id, s.nextAttemptAt).catch((err) => logger.error({ err, deliveryId: s.id }, 'webhook retry could not be scheduled; the sweep will'));
    }
  }
}

/**
 * A retry job's attempt, due now, goes to its hook's lane (the job then ends); anything else (not
 * pending, not yet due, gone) is left to the job's own perform(). Reads the delivery and the hook's
 * lane limits by `_id`.
 */
export async function handToLane(now: Date, dispatcher: DeliveryDispatcher, deliveryId: string): Promise<boolean> {
  const delivery = await DeliveryModel.findOne({ _id: deliveryId }, { webhookId: 1, status: 1, nextAttemptAt: 1 }).lean<Pick<Delivery, 'webhookId' | 'status' | 'nextAttemptAt'>>();
  if (!delivery || delivery.status !== 'pending' || (delivery.nextAttemptAt && delivery.nextAttemptAt > now)) return false;
  const hook = await WebhookModel.findOne({ _id: delivery.webhookId }, { concurrency: 1, ratePerSecond: 1 }).lean<{ concurrency?: number | null; ratePerSecond?: number | null }>();
  dispatcher.kick([{ id: deliveryId, webhookId: delivery.webhookId, lane: laneOf(hook) }]);
  return true;
}
