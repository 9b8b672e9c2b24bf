// gateway.action: runs planned actions, those a process job planned together in one job. Each
// attempt is claimed first with a unique insert, so a duplicate job (Agenda on FerretDB can hand one
// job to two runners, docs/FERRETDB.md) or a retry never repeats an action that succeeded. A job of
// one action re-throws a retryable failure for Agenda's backoff; in a job of several, each such
// action gets a job of its own at its delay, so one slow endpoint does not hold the others back.
import type { AppContext } from '../context.ts';
import { ruleOutcomes } from '../observability/metrics.ts';
import { runAction } from './actions/index.ts';
import type { ActionContext } from './actions/report.ts';
import type { ActionSpec } from './actions/specs.ts';
import { byPublicId } from '../db/byId.ts';
import { insertedOnce } from '../db/insertNew.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryModel, type ActionOutcome, type GatewayDelivery } from './model.ts';
import type { ActionType } from './rules/format.ts';
import { ACTION_JOB, type ActionJobData } from './service.ts';
import { trusted } from '../db/connection.ts';

/** Delays between attempts; attempts = delays + 1. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 60_000, 120_000, 240_000];

/** Thrown so Agenda runs the job again after `delayMs` (the backoff reads it). */
export class RetryableActionError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

export type ActionServices = Pick<ActionContext, 'mailer' | 'outbound'> & { sourceOf(name: string): ActionContext['source'] };

/**
 * Takes the next attempt of an outcome that is waiting (pending, retrying) or whose running
 * attempt outlived its lease. The attempt is owned by whoever inserts its claim document first.
 */
async function claim(ctx: AppContext, outcomeId: string, current: ActionOutcome | null): Promise<ActionOutcome | null> {
  const now = ctx.clock.now();
  if (!current) return null;
  const leased = current.status === 'running' && current.leaseUntil !== null && current.leaseUntil !== undefined;
  if (leased && current.leaseUntil! >= now) {
    // Another runner holds the attempt, or held it and died: its lease was taken after Agenda's
    // job lock, so a job re-locked after a crash can get here first. Come back when it ends,
    // instead of ending the job and leaving the action running for ever.
    throw new RetryableActionError('an attempt of this action is in flight', current.leaseUntil!.getTime() - now.getTime() + 1_000);
  }
  if (current.status !== 'pending' && current.status !== 'retrying' && !leased) return null;
  let attempt = current.attempts + 1;
  while (!(await insertedOnce(ActionClaimModel.create({ _id: `${outcomeId}#${attempt}`, outcome: outcomeId, attempt, claimedAt: now })))) {
    // Someone claimed this attempt. Within a lease of the claim it may be running it now. Later, the
    // claimer died (or lost the database) between its claim and marking the outcome running, which
    // would otherwise leave the action pending for ever: like an expired lease, take the next attempt.
    const taken = await ActionClaimModel.findById(`${outcomeId}#${attempt}`, { claimedAt: 1 }).lean<{ claimedAt: Date }>();
    if (!taken || taken.claimedAt.getTime() + ctx.config.JOB_LOCK_LIFETIME_MS >= now.getTime()) return null;
    attempt++;
  }
  const leaseUntil = new Date(now.getTime() + ctx.config.JOB_LOCK_LIFETIME_MS);
  await ActionOutcomeModel.updateOne({ _id: current._id }, { $set: { status: 'running', attempts: attempt, leaseUntil } });
  return { ...current, status: 'running', attempts: attempt, leaseUntil };
}

type DeliveryFacts = Pick<GatewayDelivery, 'id' | 'source' | 'deliveryId' | 'event'>;

/**
 * The job's outcomes and their deliveries in a read each (by `_id`; by `id` for records stored
 * before they had one), not two reads per action: on FerretDB each command costs about a
 * millisecond of its CPU (docs/BENCHMARKS.md, issue 17).
 */
async function readJob(ids: string[]): Promise<{ outcomes: Map<string, ActionOutcome>; deliveries: Map<string, DeliveryFacts> }> {
  const outcomes = new Map<string, ActionOutcome>();
  for (const o of await ActionOutcomeModel.find({ _id: trusted({ $in: ids }) }).lean<ActionOutcome[]>()) outcomes.set(o.id, o);
  for (const id of ids) {
    if (outcomes.has(id)) continue;
    const older = await byPublicId<ActionOutcome>(ActionOutcomeModel, id);
    if (older) outcomes.set(id, older);
  }
  const deliveries = new Map<string, DeliveryFacts>();
  const deliveryIds = [...new Set([...outcomes.values()].map((o) => o.delivery))];
  const projection = { id: 1, source: 1, deliveryId: 1, event: 1 };
  if (deliveryIds.length) for (const d of await GatewayDeliveryModel.find({ id: trusted({ $in: deliveryIds }) }, projection).lean<DeliveryFacts[]>()) deliveries.set(d.id, d);
  return { outcomes, deliveries };
}

/** Actions of one job run at once, and how often a long job extends its lock (as process.job.ts). */
const ACTIONS_AT_ONCE = 4;
const TOUCH_EVERY_MS = 5_000;

export async function performAction(ctx: AppContext, services: ActionServices, retryDelaysMs: number[], data: ActionJobData, touch?: () => Promise<void>): Promise<void> {
  // `outcomeId`: a job queued before actions were batched.
  const ids = data.outcomeIds ?? (data.outcomeId ? [data.outcomeId] : []);
  if (ids.length === 0) return;
  const { outcomes, deliveries } = await readJob(ids);
  if (ids.length === 1) return runOne(ctx, services, retryDelaysMs, ids[0]!, outcomes, deliveries);
  let failure: unknown = null;
  let touchedAt = ctx.clock.now().getTime();
  let next = 0;
  const runner = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      // Slow endpoints (up to the outbound timeout each) must not let the job lock run out mid-batch.
      if (touch && ctx.clock.now().getTime() - touchedAt >= TOUCH_EVERY_MS) {
        touchedAt = ctx.clock.now().getTime();
        await touch();
      }
      try {
        await runOne(ctx, services, retryDelaysMs, id, outcomes, deliveries);
      } catch (err) {
        if (!(err instanceof RetryableActionError)) {
          // Database trouble: the whole job is retried; the actions that finished are not run again.
          failure = err;
          continue;
        }
        await ctx.jobs.schedule<ActionJobData>(new Date(ctx.clock.now().getTime() + err.delayMs), ACTION_JOB, { outcomeIds: [id] });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ACTIONS_AT_ONCE, ids.length) }, runner));
  if (failure) throw failure;
}

async function runOne(
  ctx: AppContext,
  services: ActionServices,
  retryDelaysMs: number[],
  outcomeId: string,
  outcomes: Map<string, ActionOutcome>,
  deliveries: Map<string, DeliveryFacts>,
): Promise<void> {
  const outcome = await claim(ctx, outcomeId, outcomes.get(outcomeId) ?? null);
  if (!outcome) return;
  const delivery = deliveries.get(outcome.delivery);
  const report = await runAction(outcome.type as ActionType, outcome.spec as ActionSpec, {
    outcomeId: outcome.id,
    rule: outcome.rule,
    delivery: { id: outcome.delivery, source: delivery?.source ?? '', deliveryId: delivery?.deliveryId ?? '', event: delivery?.event ?? '' },
    source: delivery ? services.sourceOf(delivery.source) : null,
    previous: (outcome.result as Record<string, unknown> | null) ?? null,
    config: ctx.config,
    logger: ctx.logger,
    clock: ctx.clock,
    mailer: services.mailer,
    outbound: services.outbound,
  });
  const willRetry = !report.ok && report.retry && outcome.attempts <= retryDelaysMs.length;
  const status = report.ok ? 'succeeded' : willRetry ? 'retrying' : 'failed';
  const finished = status !== 'retrying';
  await ActionOutcomeModel.updateOne(
    { _id: outcome._id },
    { $set: { status, error: report.error, result: report.result, leaseUntil: null, finishedAt: finished ? ctx.clock.now() : null } },
  );
  ruleOutcomes.inc({ rule: outcome.rule, action: outcome.type, outcome: status });
  if (!report.ok) ctx.logger.warn({ rule: outcome.rule, action: outcome.type, outcomeId: outcome.id, attempt: outcome.attempts, status }, `gateway action failed: ${report.error}`);
  if (willRetry) throw new RetryableActionError(report.error ?? 'action failed', retryDelaysMs[outcome.attempts - 1]!);
}
