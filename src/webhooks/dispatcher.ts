// Runs first attempts in the process that created the deliveries, right away, instead of waiting
// for a worker to poll Agenda (spec issue: "first attempt must not wait for the poll interval").
//
// New deliveries take a batched path, because on FerretDB v1 one write costs about 1 ms while an
// `insertMany` costs about 0.1 ms a document (docs/WEBHOOKS.md, "Recording"): their claims go out
// in one insert per batch, their results in one insert per batch. A success leaves the delivery
// row as created (`fresh`): its result row is the record, readers take the state from it
// (attempts.ts) and the sweep checks fresh rows in bulk. Any other outcome is settled onto the row
// afterwards in bulk, and a failure gets its retry on Agenda. Anything lost here (crash, database
// trouble) stays in the database for the sweep job to find.
import { bulkWriteInBatches, SERIAL_WRITE_BATCH } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { insertNew } from '../db/insertNew.ts';
import { deliveries as deliveriesMetric } from '../observability/metrics.ts';
import { insertResults, settlement } from './attempts.ts';
import { claimRow, perform, resultOf, scheduleDelivery, type DeliveryDeps } from './delivery.job.ts';
import type { FreshDelivery } from './fanout.ts';
import { AttemptModel, DeliveryModel, type AttemptResult, type Delivery, type DeliveryRequest } from './model.ts';
import { signedRequest } from './request.ts';

/** Claims per insert: large enough to amortise the write, small enough to start sending soon. */
const CLAIM_BATCH = 64;
const RESULT_BATCH = 256;

interface Ended {
  delivery: Delivery;
  result: AttemptResult;
}

export class DeliveryDispatcher {
  /** New deliveries waiting for their claim: one insert per batch. */
  private readonly claims: SerialBatcher<FreshDelivery>;
  /** Claimed first attempts waiting for a slot. */
  private claimed: FreshDelivery[] = [];
  /** Existing deliveries (resends): perform() reads what is due. */
  private queue: string[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private roomWaiters: Array<() => void> = [];
  private readonly results: SerialBatcher<Ended>;
  private readonly settles: SerialBatcher<Ended>;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly concurrency: number,
  ) {
    this.claims = new SerialBatcher(CLAIM_BATCH, (items) => this.claim(items), () => this.wakeIfIdle());
    this.results = new SerialBatcher(RESULT_BATCH, (items) => this.recordResults(items), () => this.wakeIfIdle());
    this.settles = new SerialBatcher(RESULT_BATCH, (items) => this.settle(items), () => this.wakeIfIdle());
  }

  /** Sends the first attempt of each new delivery as soon as a slot is free; does not wait for them. */
  dispatch(deliveries: FreshDelivery[]): void {
    for (const d of deliveries) this.claims.add(d);
  }

  /** Starts the due attempt of each delivery as soon as a slot is free; does not wait for them. */
  kick(deliveryIds: string[]): void {
    this.queue.push(...deliveryIds);
    this.pump();
  }

  /** Runs one delivery's due attempt now and waits for it (resend from the CLI, tests). */
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

  private isIdle(): boolean {
    return this.running === 0 && !this.claimed.length && !this.queue.length && this.claims.idle && this.results.idle && this.settles.idle;
  }

  private wakeIfIdle(): void {
    if (this.isIdle()) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private release(): void {
    this.running--;
    this.pump();
  }

  private pump(): void {
    while (this.running < this.concurrency && (this.claimed.length || this.queue.length)) {
      this.running++;
      if (this.claimed.length) void this.firstAttempt(this.claimed.shift()!).finally(() => this.release());
      else void this.attempt(this.queue.shift()!).finally(() => this.release());
    }
    if (this.running + this.claimed.length < this.concurrency) for (const wake of this.roomWaiters.splice(0)) wake();
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

  /**
   * Claims attempt 1 of a batch of new deliveries in one insert and queues their sends; the next
   * batch is claimed once there is room, so no claim waits for a slot long enough for its lease
   * to run out (a backlog waits unclaimed, where the sweep may take it instead).
   */
  private async claim(batch: FreshDelivery[]): Promise<void> {
    const { clock, logger } = this.deps.ctx;
    try {
      const now = clock.now();
      // The raw collection: the rows are built complete, and mongoose's casting of each document
      // was the largest cost of this path in the process's profile.
      const taken = await insertNew(
        AttemptModel.collection,
        batch.map((f) => claimRow(f.delivery.id, 1, now, this.deps.leaseMs)),
      );
      // Claimed before by someone else (a sweep that ran early): theirs to send.
      this.claimed.push(...batch.filter((_, i) => !taken.has(i)));
    } catch (err) {
      logger.error({ err, deliveries: batch.length }, 'webhook first attempts could not be claimed; the sweep will run them');
    }
    this.pump();
    if (this.running + this.claimed.length >= this.concurrency) await new Promise<void>((r) => this.roomWaiters.push(r));
  }

  private async firstAttempt({ delivery, secret }: FreshDelivery): Promise<void> {
    try {
      const request = signedRequest(delivery.request as DeliveryRequest, { secret, deliveryId: delivery.id, event: delivery.event });
      const res = await this.deps.outbound.send(request);
      this.results.add({ delivery, result: resultOf(this.deps, delivery, 1, res, this.deps.ctx.clock.now()) });
    } catch (err) {
      this.deps.ctx.logger.error({ err, deliveryId: delivery.id }, 'webhook first attempt failed to run; the sweep will retry it');
    }
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
      deliveriesMetric.inc({ outcome: succeeded ? 'succeeded' : 'failed', attempt: '1' });
      // On FerretDB an update costs about four times a document of an insert: most first attempts
      // succeed, and their row needs none (docs/WEBHOOKS.md, "Recording").
      if (!succeeded) this.settles.add(ended);
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
