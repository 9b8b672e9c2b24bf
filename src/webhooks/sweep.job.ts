// webhooks.sweep: deliveries left behind are handed to Agenda again. Running perform() twice is
// harmless, so a needless hand-over costs one no-op run. Two kinds of rows are checked:
// - settled rows still pending well after their attempt was due (a process died between an
//   attempt and scheduling its retry);
// - fresh rows, as the fan-out created them, whose batch's record of unfinished first attempts
//   (firstAttempts.ts) is older than the grace period: checked against their first attempts'
//   result rows, and only those without a success are handed over (a process died with first
//   attempts queued in memory or in flight). Only what a crash or a failure left is read.
import type { AppContext } from '../context.ts';
import { attemptKey, AttemptResultModel, DeliveryModel, UnfinishedFirstAttemptsModel } from './model.ts';
import { DELIVERY_JOB, type DeliveryJobData } from './delivery.job.ts';
import { trusted } from '../db/connection.ts';

export const SWEEP_JOB = 'webhooks.sweep';
/** Keys per lookup: well inside SQLite's bound on a statement's parameters. */
const LOOKUP = 1_000;

export async function performSweep(ctx: Pick<AppContext, 'clock' | 'jobs'>, overdueAfterMs: number, batch = 500, freshBatch = 100): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - overdueAfterMs);
  return (await sweepSettled(ctx, now, cutoff, batch)) + (await sweepFresh(ctx, now, cutoff, freshBatch));
}

/**
 * Moves the row's nextAttemptAt to now and queues its run. The move claims it for this sweep
 * (another sweeper's conditional update finds it changed) and keeps it off the overdue list until
 * the grace period passes again.
 */
async function handOver(ctx: Pick<AppContext, 'jobs'>, filter: Record<string, unknown>, id: string, now: Date): Promise<boolean> {
  const res = await DeliveryModel.updateOne({ ...filter, _id: id }, { $set: { nextAttemptAt: now, fresh: false } });
  if (res.modifiedCount !== 1) return false;
  await ctx.jobs.now<DeliveryJobData>(DELIVERY_JOB, { deliveryId: id });
  return true;
}

async function sweepSettled(ctx: Pick<AppContext, 'jobs'>, now: Date, cutoff: Date, batch: number): Promise<number> {
  // `fresh: false`, not `$ne: true`: an equality the (status, fresh, nextAttemptAt) index serves, so
  // the fresh rows (every delivery whose first attempt succeeded) are never read here.
  const overdue = await DeliveryModel.find({ status: 'pending', fresh: false, nextAttemptAt: trusted({ $lt: cutoff }) }, { id: 1, nextAttemptAt: 1 })
    .limit(batch)
    .lean<Array<{ id: string; nextAttemptAt: Date }>>();
  let swept = 0;
  for (const d of overdue) if (await handOver(ctx, { status: 'pending', nextAttemptAt: d.nextAttemptAt }, d.id, now)) swept++;
  return swept;
}

/** Fresh rows of `freshBatch` records of first attempts older than the cutoff; each record is deleted once its rows are handled. */
async function sweepFresh(ctx: Pick<AppContext, 'jobs'>, now: Date, cutoff: Date, freshBatch: number): Promise<number> {
  const records = await UnfinishedFirstAttemptsModel.find({ at: trusted({ $lt: cutoff }) })
    .sort({ at: 1 })
    .limit(freshBatch)
    .lean<Array<{ _id: string; eventIds: string[] }>>();
  let swept = 0;
  for (const record of records) {
    for (let i = 0; i < record.eventIds.length; i += LOOKUP) {
      // The (eventId, webhookId) index: a batch whose deliveries a crash kept from being inserted has none.
      const fresh = await DeliveryModel.find({ eventId: trusted({ $in: record.eventIds.slice(i, i + LOOKUP) }), fresh: true }, { _id: 1 }).lean<Array<{ _id: string }>>();
      for (let j = 0; j < fresh.length; j += LOOKUP) {
        const rows = fresh.slice(j, j + LOOKUP);
        const succeeded = await AttemptResultModel.find({ _id: trusted({ $in: rows.map((row) => attemptKey(row._id, 1)) }), status: 'succeeded' }, { deliveryId: 1 }).lean<Array<{ deliveryId: string }>>();
        const done = new Set(succeeded.map((r) => r.deliveryId));
        for (const row of rows) if (!done.has(row._id) && (await handOver(ctx, { fresh: true }, row._id, now))) swept++;
      }
    }
    await UnfinishedFirstAttemptsModel.deleteOne({ _id: record._id });
  }
  return swept;
}
