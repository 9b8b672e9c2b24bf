// webhooks.deliver: one attempt of one delivery. The delivery and its attempt rows are the truth,
// the job is only its timer: perform() claims the next attempt by inserting its row (pending)
// before the request leaves, so two workers never send the same attempt, and records how it
// ended as a result row (attempts.ts). A worker that died mid-attempt leaves a claim without a
// result whose lease runs out; the next run records it interrupted and tries again with the same
// deliveryId and bytes. Attempt 1 of a new delivery is claimed in the delivery row when it is
// created and sent by the process that created it (fanout.ts, dispatcher.ts).
import type { AppContext } from '../context.ts';
import type { Scheduler } from '../jobs/scheduler.ts';
import type { OutboundClient, OutboundResponse } from '../outbound/client.ts';
import { deliveries as deliveriesMetric } from '../observability/metrics.ts';
import { attemptKey, AttemptModel, DeliveryModel, WebhookModel, type AttemptResult, type Delivery, type DeliveryAttempt, type Webhook } from './model.ts';
import { insertResults, readAttempt, settlement } from './attempts.ts';
import { insertedOnce } from '../db/insertNew.ts';
import { signedRequest } from './request.ts';
import type { RetrySchedule } from './retry.ts';
import type { HookHealth } from './health.ts';

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
  /** Endpoint health: failing windows and disabling (health.ts); absent in some tests. */
  health?: HookHealth;
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
  await DeliveryModel.updateOne({ _id: id, status: 'pending' }, { $set: { ...set, nextAttemptAt: null, fresh: false } });
}

/** A pending attempt whose lease ran out: its worker is gone and its outcome unknown. False when it has one after all. */
async function interruptAttempt(webhookId: string, attempt: DeliveryAttempt, now: Date): Promise<boolean> {
  const recorded = await insertResults([
    {
      _id: attemptKey(attempt.deliveryId, attempt.number),
      deliveryId: attempt.deliveryId,
      webhookId,
      number: attempt.number,
      status: 'interrupted',
      finishedAt: now,
      httpStatus: null,
      durationMs: null,
      error: { code: 'interrupted', message: 'the worker stopped during this attempt; its outcome is unknown' },
      responseBody: null,
      responseTruncated: false,
      retryAt: null,
    },
  ]);
  if (recorded.size) deliveriesMetric.inc({ outcome: 'interrupted', attempt: String(attempt.number), test: 'false' });
  return recorded.size > 0;
}

/** The attempt row that claims an attempt; inserting it is the claim (unique `_id`). */
export function claimRow(deliveryId: string, number: number, now: Date, leaseMs: number, runner: string | null = null) {
  return { _id: attemptKey(deliveryId, number), deliveryId, number, startedAt: now, leaseUntil: new Date(now.getTime() + leaseMs), runner };
}

/** False when another worker won. */
async function claimAttempt(deps: DeliveryDeps, deliveryId: string, number: number, now: Date): Promise<boolean> {
  return insertedOnce(AttemptModel.create(claimRow(deliveryId, number, now, deps.leaseMs, deps.ctx.jobs.attrs.name ?? null)));
}

/** The result row of an attempt that got this response, with when the next one is due. */
export function resultOf(deps: Pick<DeliveryDeps, 'schedule'>, delivery: Delivery, number: number, res: OutboundResponse, now: Date): AttemptResult {
  const schedule = deps.schedule.withDelays(delivery.retryDelaysMs);
  const retryAt = res.ok || number >= delivery.attemptLimit ? null : new Date(now.getTime() + schedule.delayAfter(number - (delivery.runAfter ?? 0)));
  return {
    _id: attemptKey(delivery.id, number),
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    number,
    status: res.ok ? 'succeeded' : 'failed',
    finishedAt: now,
    httpStatus: res.status,
    durationMs: res.durationMs,
    error: res.error,
    responseBody: res.body,
    responseTruncated: res.bodyTruncated,
    retryAt,
  };
}

async function recordResult(deps: DeliveryDeps, delivery: Delivery, number: number, res: OutboundResponse): Promise<PerformOutcome> {
  const result = resultOf(deps, delivery, number, res, deps.ctx.clock.now());
  // Not recorded: another runner found our lease run out, marked the attempt interrupted and
  // carries the delivery on.
  if (!(await insertResults([result])).size) return DONE;
  deliveriesMetric.inc({ outcome: res.ok ? 'succeeded' : 'failed', attempt: String(number), test: 'false' });
  await deps.health?.record(delivery.webhookId, res.ok, result.finishedAt);
  const settled = settlement(delivery, result);
  await DeliveryModel.updateOne({ _id: delivery.id }, { $set: { ...settled, fresh: false } });
  return settled.nextAttemptAt ? later(settled.nextAttemptAt) : DONE;
}

/**
 * The newest attempt, by `_id` reads only: start from the delivery's attemptCount (it may lag
 * behind while another runner is between writes; a claim in the row counts as attempt 1) and
 * step forward while a newer row exists.
 */
async function latestAttempt(delivery: Delivery): Promise<DeliveryAttempt | null> {
  let number = Math.max(delivery.attemptCount ?? 0, delivery.firstClaim ? 1 : 0);
  while (await AttemptModel.exists({ _id: attemptKey(delivery.id, number + 1) })) number++;
  return number > 0 ? readAttempt(delivery, number) : null;
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
    // It ended just now after all: decide again from its outcome.
    if (!(await interruptAttempt(delivery.webhookId, last, now))) return perform(deps, deliveryId);
  } else if (last && last.number > (delivery.runAfter ?? 0)) {
    // The delivery row may trail its attempts (a runner between writes, first attempts settled in
    // batches); the attempt and result rows do not.
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
  const hook = await WebhookModel.findOne({ _id: delivery.webhookId }).lean<Webhook>();
  if (hook) deps.health?.observe([hook]);
  if (!hook?.enabled) {
    await closeDelivery(delivery.id, { status: 'cancelled', finishedAt: now, cancelReason: hook ? 'webhook_disabled' : 'webhook_deleted' });
    return DONE;
  }
  // Readers skip the attempt rows of fresh rows (attempts.ts): the row stops being fresh first.
  if (delivery.fresh) await DeliveryModel.updateOne({ _id: delivery.id, fresh: true }, { $set: { fresh: false } });
  if (!(await claimAttempt(deps, delivery.id, number, now))) return later(new Date(now.getTime() + deps.leaseMs));
  // Signed now, with the current secret: regenerating it invalidates signatures of queued retries.
  const request = signedRequest(delivery.request, { secret: hook.secret, deliveryId: delivery.id, event: delivery.event, now, standardWebhooks: hook.standardWebhooks });
  const res = await deps.outbound.send(request);
  return recordResult(deps, delivery, number, res);
}

/** Queues the next run of a delivery on Agenda at `at` (retries and crash recovery). */
export async function scheduleDelivery(jobs: Scheduler, deliveryId: string, at: Date): Promise<void> {
  await jobs.schedule<DeliveryJobData>(at, DELIVERY_JOB, { deliveryId });
}

/**
 * Hands a due attempt to the process's per-hook lanes (dispatcher.ts) and answers true, so a hook
 * whose endpoint hangs does not hold Agenda's job slots either; false leaves it to the job.
 */
export type LaneHandoff = (deliveryId: string) => Promise<boolean>;

export function defineDeliveryJob(jobs: Scheduler, deps: DeliveryDeps, lockLifetimeMs: number, handoff?: LaneHandoff): void {
  jobs.define<DeliveryJobData>(
    DELIVERY_JOB,
    async (job) => {
      // The lane runs perform() and schedules the next retry itself; a crash before it runs leaves
      // a due pending delivery, which the sweep hands over again.
      if (handoff && (await handoff(job.attrs.data.deliveryId))) return;
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
