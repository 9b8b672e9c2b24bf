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
import { AttemptResultModel, DeliveryModel } from './model.ts';
import { sweepWindow } from '../db/sweepWindow.ts';
import { DELIVERY_JOB, type DeliveryJobData } from './delivery.job.ts';
import { trusted } from '../db/connection.ts';

export const SWEEP_JOB = 'webhooks.sweep';
const FRESH_MARK = 'webhooks.fresh-deliveries';

export async function performSweep(ctx: Pick<AppContext, 'clock' | 'jobs'>, overdueAfterMs: number, batch = 500, freshBatch = 5_000): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - overdueAfterMs);
  return (await sweepSettled(ctx, now, cutoff, batch)) + (await sweepFresh(ctx, now, cutoff, overdueAfterMs, freshBatch));
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

async function sweepFresh(ctx: Pick<AppContext, 'jobs'>, now: Date, cutoff: Date, overdueAfterMs: number, batch: number): Promise<number> {
  const { rows, advance } = await sweepWindow(DeliveryModel as unknown as Model<{ _id: string; createdAt: Date }>, FRESH_MARK, { fresh: true }, cutoff, batch, { _id: 1, createdAt: 1 });
  let swept = 0;
  if (rows.length) {
    // A result is never older than its delivery. One that ended later than this window still
    // counts as missing here, which only costs that delivery a no-op run (perform closes it).
    const succeeded = await AttemptResultModel.find(
      { number: 1, status: 'succeeded', finishedAt: trusted({ $gte: rows[0]!.createdAt, $lt: new Date(rows.at(-1)!.createdAt.getTime() + 2 * overdueAfterMs) }) },
      { deliveryId: 1 },
    ).lean<Array<{ deliveryId: string }>>();
    const done = new Set(succeeded.map((r) => r.deliveryId));
    for (const row of rows) if (!done.has(row._id) && (await handOver(ctx, { fresh: true }, row._id, now))) swept++;
  }
  await advance();
  return swept;
}
