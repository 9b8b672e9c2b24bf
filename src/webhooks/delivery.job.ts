// webhooks.deliver: one attempt of one delivery. The delivery document is the truth, the job is
// only its timer: perform() claims the next attempt by writing its row (pending) before the
// request leaves, so two workers never send the same attempt, and a worker that died mid-attempt
// leaves a pending row whose lease runs out; the next run marks it interrupted and tries again
// with the same deliveryId and bytes.
import type { AppContext } from '../context.ts';
import type { Scheduler } from '../jobs/scheduler.ts';
import type { OutboundClient, OutboundResponse } from '../outbound/client.ts';
import { deliveries as deliveriesMetric } from '../observability/metrics.ts';
import { attemptKey, AttemptModel, DeliveryModel, WebhookModel, type Delivery, type DeliveryAttempt, type DeliveryRequest, type Webhook } from './model.ts';
import { signedRequest } from './request.ts';
import type { RetrySchedule } from './retry.ts';

export const DELIVERY_JOB = 'webhooks.deliver';
export interface DeliveryJobData {
  deliveryId: string;
}

export interface DeliveryDeps {
  ctx: Pick<AppContext, 'clock' | 'logger' | 'jobs'>;
  outbound: OutboundClient;
  schedule: RetrySchedule;
  /** How long a claimed attempt may stay in flight: above the outbound timeout. */
  leaseMs: number;
}

export type PerformOutcome = { done: true } | { done: false; retryAt: Date };
const DONE: PerformOutcome = { done: true };
const later = (retryAt: Date): PerformOutcome => ({ done: false, retryAt });

/** Thrown by the job so Agenda reschedules it (the backoff reads `delayMs`). */
export class RetryLater extends Error {
  constructor(readonly delayMs: number) {
    super(`next attempt in ${delayMs} ms`);
  }
}

async function closeDelivery(id: string, set: Record<string, unknown>): Promise<void> {
  await DeliveryModel.updateOne({ _id: id, status: 'pending' }, { $set: { ...set, nextAttemptAt: null } });
}

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/** A pending attempt whose lease ran out: its worker is gone and its outcome unknown. */
async function interruptAttempt(attempt: DeliveryAttempt, now: Date): Promise<void> {
  await AttemptModel.updateOne(
    { _id: attemptKey(attempt.deliveryId, attempt.number), status: 'pending' },
    { $set: { status: 'interrupted', finishedAt: now, error: { code: 'interrupted', message: 'the worker stopped during this attempt; its outcome is unknown' } } },
  );
  deliveriesMetric.inc({ outcome: 'interrupted', attempt: String(attempt.number) });
}

/** Inserting the row is the claim (unique deliveryId + number); false when another worker won. */
async function claimAttempt(deliveryId: string, number: number, now: Date, leaseMs: number): Promise<boolean> {
  try {
    await AttemptModel.create({ _id: attemptKey(deliveryId, number), deliveryId, number, status: 'pending', startedAt: now, leaseUntil: new Date(now.getTime() + leaseMs) });
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
  return true;
}

async function recordResult(deps: DeliveryDeps, delivery: Delivery, number: number, res: OutboundResponse): Promise<PerformOutcome> {
  const now = deps.ctx.clock.now();
  const status = res.ok ? 'delivered' : number >= delivery.attemptLimit ? 'failed' : 'pending';
  const nextAttemptAt = status === 'pending' ? new Date(now.getTime() + deps.schedule.delayAfter(number - (delivery.runAfter ?? 0))) : null;
  await AttemptModel.updateOne(
    { _id: attemptKey(delivery.id, number) },
    {
      $set: {
        status: res.ok ? 'succeeded' : 'failed',
        finishedAt: now,
        httpStatus: res.status,
        durationMs: res.durationMs,
        error: res.error,
        responseBody: res.body,
        responseTruncated: res.bodyTruncated,
        retryAt: nextAttemptAt,
      },
    },
  );
  await DeliveryModel.updateOne({ _id: delivery.id }, { $set: { status, attemptCount: number, nextAttemptAt, finishedAt: status === 'pending' ? null : now } });
  deliveriesMetric.inc({ outcome: res.ok ? 'succeeded' : 'failed', attempt: String(number) });
  return nextAttemptAt ? later(nextAttemptAt) : DONE;
}

/**
 * The newest attempt row, by `_id` reads only: start from the delivery's attemptCount (it may lag
 * behind while another runner is between writes) and step forward while a newer row exists.
 */
async function latestAttempt(delivery: Delivery): Promise<DeliveryAttempt | null> {
  let number = delivery.attemptCount ?? 0;
  while (await AttemptModel.exists({ _id: attemptKey(delivery.id, number + 1) })) number++;
  return number > 0 ? AttemptModel.findOne({ _id: attemptKey(delivery.id, number) }).lean<DeliveryAttempt>() : null;
}

/** Makes the next attempt of a delivery if one is due; safe to call any number of times, anywhere. */
export async function perform(deps: DeliveryDeps, deliveryId: string): Promise<PerformOutcome> {
  const now = deps.ctx.clock.now();
  const delivery = await DeliveryModel.findOne({ _id: deliveryId }).lean<Delivery>();
  if (!delivery || delivery.status !== 'pending') return DONE;
  if (delivery.nextAttemptAt && delivery.nextAttemptAt > now) return later(delivery.nextAttemptAt);
  const last = await latestAttempt(delivery);
  if (last?.status === 'pending') {
    if (last.leaseUntil > now) return later(last.leaseUntil);
    await interruptAttempt(last, now);
  } else if (last && last.number > (delivery.runAfter ?? 0)) {
    // The delivery document may be stale (another runner is between writes); the attempt row is not.
    if (last.status === 'succeeded') {
      await closeDelivery(delivery.id, { status: 'delivered', finishedAt: last.finishedAt ?? now });
      return DONE;
    }
    if (last.status === 'failed' && last.retryAt && last.retryAt > now) return later(last.retryAt);
  }
  const number = (last?.number ?? 0) + 1;
  if (number > delivery.attemptLimit) {
    await closeDelivery(delivery.id, { status: 'failed', finishedAt: now });
    return DONE;
  }
  // Spec "Delivery behaviour" 4: a hook disabled (or deleted) after the event sends nothing more.
  const hook = await WebhookModel.findOne({ _id: delivery.webhookId }, { enabled: 1, secret: 1 }).lean<Pick<Webhook, 'enabled' | 'secret'>>();
  if (!hook?.enabled) {
    await closeDelivery(delivery.id, { status: 'cancelled', finishedAt: now, cancelReason: hook ? 'webhook_disabled' : 'webhook_deleted' });
    return DONE;
  }
  if (!(await claimAttempt(delivery.id, number, now, deps.leaseMs))) return later(new Date(now.getTime() + deps.leaseMs));
  // Signed now, with the current secret: regenerating it invalidates signatures of queued retries.
  const request = signedRequest(delivery.request as DeliveryRequest, { secret: hook.secret, deliveryId: delivery.id, event: delivery.event });
  const res = await deps.outbound.send(request);
  return recordResult(deps, delivery, number, res);
}

/** Queues the next run of a delivery on Agenda at `at` (retries and crash recovery). */
export async function scheduleDelivery(jobs: Scheduler, deliveryId: string, at: Date): Promise<void> {
  await jobs.schedule<DeliveryJobData>(at, DELIVERY_JOB, { deliveryId });
}

export function defineDeliveryJob(jobs: Scheduler, deps: DeliveryDeps, lockLifetimeMs: number): void {
  jobs.define<DeliveryJobData>(
    DELIVERY_JOB,
    async (job) => {
      const outcome = await perform(deps, job.attrs.data.deliveryId);
      if (!outcome.done) throw new RetryLater(Math.max(0, outcome.retryAt.getTime() - deps.ctx.clock.now().getTime()));
    },
    {
      concurrency: 50,
      // Well above the outbound timeout, so a running attempt's job is never picked up twice.
      lockLifetime: lockLifetimeMs,
      // RetryLater carries the delivery's own schedule; anything else (database trouble) is retried
      // a bounded number of times, and the sweep picks up whatever is still overdue after that.
      backoff: (c) => (c.error instanceof RetryLater ? c.error.delayMs : c.attempt <= 10 ? 30_000 : null),
    },
  );
}
