// webhooks.sweep: deliveries left behind are handed to Agenda again. Running perform() twice is
// harmless, so a needless hand-over costs one no-op run. Two kinds of rows are checked:
// - settled rows still pending well after their attempt was due (a process died between an
//   attempt and scheduling its retry);
// - fresh rows, as the fan-out created them, older than the grace period: a successful first
//   attempt leaves its row fresh (dispatcher.ts), so they are checked by creation time from a mark,
//   against the first attempts' result rows read in one query, and only those without a success
//   are handed over (a process died with first attempts queued in memory or in flight).
import type { Model } from 'mongoose';
import type { AppContext } from '../context.ts';
import { attemptKey, AttemptResultModel, DeliveryModel } from './model.ts';
import { sweepWindow } from '../db/sweepWindow.ts';
import { DELIVERY_JOB, type DeliveryJobData } from './delivery.job.ts';
import { trusted } from '../db/connection.ts';

export const SWEEP_JOB = 'webhooks.sweep';
const FRESH_MARK = 'webhooks.fresh-deliveries';
/** Result keys per lookup: well inside SQLite's bound on a statement's parameters. */
const RESULT_LOOKUP = 1_000;

export async function performSweep(ctx: Pick<AppContext, 'clock' | 'jobs'>, overdueAfterMs: number, batch = 500, freshBatch = 5_000): Promise<number> {
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
  // the fresh rows (every delivery whose first attempt succeeded) are never read here. Rows of
  // releases before `fresh` lack it (null matches them).
  const overdue: Array<{ id: string; nextAttemptAt: Date }> = [];
  for (const fresh of [false, null]) {
    if (overdue.length >= batch) break;
    overdue.push(
      ...(await DeliveryModel.find({ status: 'pending', fresh, nextAttemptAt: trusted({ $lt: cutoff }) }, { id: 1, nextAttemptAt: 1 })
        .limit(batch - overdue.length)
        .lean<Array<{ id: string; nextAttemptAt: Date }>>()),
    );
  }
  let swept = 0;
  for (const d of overdue) if (await handOver(ctx, { status: 'pending', nextAttemptAt: d.nextAttemptAt }, d.id, now)) swept++;
  return swept;
}

async function sweepFresh(ctx: Pick<AppContext, 'jobs'>, now: Date, cutoff: Date, batch: number): Promise<number> {
  const { rows, advance } = await sweepWindow(DeliveryModel as unknown as Model<{ _id: string; createdAt: Date }>, FRESH_MARK, { fresh: true }, cutoff, batch, { _id: 1, createdAt: 1 });
  let swept = 0;
  if (rows.length) {
    // The first attempts' results by key (the `_id` index): what the window holds, however many
    // results are stored. A range on `finishedAt` has no index and read every result.
    const done = new Set<string>();
    for (let i = 0; i < rows.length; i += RESULT_LOOKUP) {
      const keys = rows.slice(i, i + RESULT_LOOKUP).map((row) => attemptKey(row._id, 1));
      const succeeded = await AttemptResultModel.find({ _id: trusted({ $in: keys }), status: 'succeeded' }, { deliveryId: 1 }).lean<Array<{ deliveryId: string }>>();
      for (const r of succeeded) done.add(r.deliveryId);
    }
    for (const row of rows) if (!done.has(row._id) && (await handOver(ctx, { fresh: true }, row._id, now))) swept++;
  }
  await advance();
  return swept;
}
