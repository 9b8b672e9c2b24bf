// webhooks.sweep: deliveries still pending well after their attempt was due (a process died with
// first attempts queued in memory, or between an attempt and scheduling its retry) are handed to
// Agenda again. Running perform() twice is harmless, so a needless re-enqueue costs one no-op run.
import type { AppContext } from '../context.ts';
import { DeliveryModel } from './model.ts';
import { DELIVERY_JOB, type DeliveryJobData } from './delivery.job.ts';
import { trusted } from '../db/connection.ts';

export const SWEEP_JOB = 'webhooks.sweep';

export async function performSweep(ctx: Pick<AppContext, 'clock' | 'jobs'>, overdueAfterMs: number, batch = 500): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - overdueAfterMs);
  const overdue = await DeliveryModel.find({ status: 'pending', nextAttemptAt: trusted({ $lt: cutoff }) }, { id: 1, nextAttemptAt: 1 })
    .limit(batch)
    .lean<Array<{ id: string; nextAttemptAt: Date }>>();
  let swept = 0;
  for (const d of overdue) {
    // Moving nextAttemptAt to now claims the delivery for this sweep (another sweeper skips it)
    // and keeps it off the overdue list until the grace period passes again.
    const res = await DeliveryModel.updateOne({ _id: d.id, status: 'pending', nextAttemptAt: d.nextAttemptAt }, { $set: { nextAttemptAt: now } });
    if (res.modifiedCount !== 1) continue;
    await ctx.jobs.now<DeliveryJobData>(DELIVERY_JOB, { deliveryId: d.id });
    swept++;
  }
  return swept;
}
