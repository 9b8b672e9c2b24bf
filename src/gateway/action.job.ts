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
import { insertedOnce, insertNew } from '../db/insertNew.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryModel, type ActionOutcome as StoredOutcome, type GatewayDelivery } from './model.ts';
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

/** An outcome as read for a job, its public id (`_id`) also as `id`. */
type ActionOutcome = StoredOutcome & { id: string };

export type ActionServices = Pick<ActionContext, 'mailer' | 'outbound'> & { sourceOf(name: string): ActionContext['source'] };

/**
 * Takes the next attempt of an outcome that is waiting (pending, retrying) or whose running
 * attempt outlived its lease. The attempt is owned by whoever inserts its claim document first.
 */
async function claim(ctx: AppContext, outcomeId: string, current: ActionOutcome | null): Promise<ActionOutcome | null> {
  const now = ctx.clock.now();
  if (!current) return null;
  const leased = current.status === 'running' && current.leaseUntil !== null;
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
  await ActionOutcomeModel.collection.updateOne({ _id: current._id as never }, { $set: { status: 'running', attempts: attempt, leaseUntil } });
  return { ...current, status: 'running', attempts: attempt, leaseUntil };
}

/**
 * Claims the next attempt of each claimable outcome of a round together: one insert of their claim
 * documents and one update per attempt number marking them running, where one by one cost two
 * commands per action. An outcome whose claim document exists goes through claim(), which decides
 * whether its claimer may still be running it. Outcomes a live lease holds come back in `later`.
 */
async function claimRound(ctx: AppContext, round: ActionOutcome[]): Promise<{ claimed: ActionOutcome[]; later: Array<{ id: string; delayMs: number }> }> {
  const now = ctx.clock.now();
  const leaseUntil = new Date(now.getTime() + ctx.config.JOB_LOCK_LIFETIME_MS);
  const fresh: ActionOutcome[] = [];
  const taken: ActionOutcome[] = [];
  const later: Array<{ id: string; delayMs: number }> = [];
  for (const current of round) {
    if (current.status === 'pending' || current.status === 'retrying') fresh.push(current);
    // Running: claim() tells a live lease (later) from an expired one (the next attempt).
    else if (current.status === 'running') taken.push(current);
  }
  const existed = await insertNew(
    ActionClaimModel.collection,
    fresh.map((o) => ({ _id: `${o.id}#${o.attempts + 1}`, outcome: o.id, attempt: o.attempts + 1, claimedAt: now })),
  );
  const claimed: ActionOutcome[] = [];
  fresh.forEach((o, i) => (existed.has(i) ? taken.push(o) : claimed.push({ ...o, status: 'running', attempts: o.attempts + 1, leaseUntil })));
  for (const attempts of new Set(claimed.map((o) => o.attempts))) {
    const ids = claimed.filter((o) => o.attempts === attempts).map((o) => o._id);
    await ActionOutcomeModel.collection.updateMany({ _id: { $in: ids } as never }, { $set: { status: 'running', attempts, leaseUntil } });
  }
  for (const o of taken) {
    try {
      const mine = await claim(ctx, o.id, o);
      if (mine) claimed.push(mine);
    } catch (err) {
      if (!(err instanceof RetryableActionError)) throw err;
      later.push({ id: o.id, delayMs: err.delayMs });
    }
  }
  return { claimed, later };
}

type DeliveryFacts = Pick<GatewayDelivery, 'id' | 'source' | 'deliveryId' | 'event'>;

/**
 * The job's outcomes and their deliveries in a read each, not two reads per action: on FerretDB
 * each command costs about a millisecond of its CPU (bench/scale.ts).
 */
async function readJob(ids: string[]): Promise<{ outcomes: Map<string, ActionOutcome>; deliveries: Map<string, DeliveryFacts> }> {
  const outcomes = new Map<string, ActionOutcome>();
  for (const o of await ActionOutcomeModel.find({ _id: trusted({ $in: ids }) }).lean<StoredOutcome[]>()) outcomes.set(o._id, { ...o, id: o._id });
  const deliveries = new Map<string, DeliveryFacts>();
  const deliveryIds = [...new Set([...outcomes.values()].map((o) => o.delivery))];
  const projection = { id: 1, source: 1, deliveryId: 1, event: 1 };
  if (deliveryIds.length) for (const d of await GatewayDeliveryModel.find({ _id: trusted({ $in: deliveryIds }) }, projection).lean<DeliveryFacts[]>()) deliveries.set(d.id, d);
  return { outcomes, deliveries };
}

/**
 * Actions of one job claimed and run together, a round at a time. A round lasts about its slowest
 * action (at most the outbound timeout, a third of the lease), so every lease outlives its round.
 */
const ROUND = 8;
/** How often a long job extends its lock: well inside the smallest allowed lock lifetime (as process.job.ts). */
const TOUCH_EVERY_MS = 5_000;

export async function performAction(ctx: AppContext, services: ActionServices, retryDelaysMs: number[], data: ActionJobData, touch?: () => Promise<void>): Promise<void> {
  const ids = data.outcomeIds ?? [];
  if (ids.length === 0) return;
  const { outcomes, deliveries } = await readJob(ids);
  if (ids.length === 1) {
    const outcome = await claim(ctx, ids[0]!, outcomes.get(ids[0]!) ?? null);
    if (outcome) await runClaimed(ctx, services, retryDelaysMs, outcome, deliveries);
    return;
  }
  // A retry of one action of the batch is a job of its own at its delay: the others do not wait for it.
  const retryLater = (id: string, delayMs: number) => ctx.jobs.schedule<ActionJobData>(new Date(ctx.clock.now().getTime() + delayMs), ACTION_JOB, { outcomeIds: [id] });
  const present = ids.flatMap((id) => outcomes.get(id) ?? []);
  let failure: unknown = null;
  let touchedAt = ctx.clock.now().getTime();
  for (let i = 0; i < present.length; i += ROUND) {
    // Rounds can add up past the job lock on slow endpoints: keep it (a touch is a database write).
    if (touch && ctx.clock.now().getTime() - touchedAt >= TOUCH_EVERY_MS) {
      touchedAt = ctx.clock.now().getTime();
      await touch();
    }
    const { claimed, later } = await claimRound(ctx, present.slice(i, i + ROUND));
    for (const { id, delayMs } of later) await retryLater(id, delayMs);
    await Promise.all(
      claimed.map(async (outcome) => {
        try {
          await runClaimed(ctx, services, retryDelaysMs, outcome, deliveries);
        } catch (err) {
          // Database trouble: the whole job is retried; the actions that finished are not run again.
          if (!(err instanceof RetryableActionError)) failure = err;
          else await retryLater(outcome.id, err.delayMs);
        }
      }),
    );
  }
  if (failure) throw failure;
}

/** Runs a claimed attempt and records how it ended; throws RetryableActionError when it is to be tried again. */
async function runClaimed(ctx: AppContext, services: ActionServices, retryDelaysMs: number[], outcome: ActionOutcome, deliveries: Map<string, DeliveryFacts>): Promise<void> {
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
  const set = { status, error: report.error ?? null, result: report.result ?? null, finishedAt: finished ? ctx.clock.now() : null, leaseUntil: null };
  await ActionOutcomeModel.collection.updateOne({ _id: outcome._id as never }, { $set: set });
  ruleOutcomes.inc({ rule: outcome.rule, action: outcome.type, outcome: status });
  if (!report.ok) ctx.logger.warn({ rule: outcome.rule, action: outcome.type, outcomeId: outcome.id, attempt: outcome.attempts, status }, `gateway action failed: ${report.error}`);
  if (willRetry) throw new RetryableActionError(report.error ?? 'action failed', retryDelaysMs[outcome.attempts - 1]!);
}
