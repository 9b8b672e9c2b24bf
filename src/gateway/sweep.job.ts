// gateway.sweep: the safety net for a crash between two writes. A delivery stored but never
// enqueued, or an action recorded but never enqueued, is enqueued again; the jobs are idempotent,
// so one that was merely slow is harmless to enqueue twice.
import type { AppContext } from '../context.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from './model.ts';
import { ACTION_JOB, PROCESS_JOB, type ActionJobData, type ProcessJobData } from './service.ts';
import { trusted } from '../db/connection.ts';

export async function performSweep(ctx: AppContext, olderThanMs: number): Promise<{ deliveries: number; actions: number }> {
  const cutoff = new Date(ctx.clock.now().getTime() - olderThanMs);
  const stale = await GatewayDeliveryModel.find({ processedAt: null, receivedAt: trusted({ $lt: cutoff }) }, { id: 1, run: 1 })
    .limit(500)
    .lean<{ id: string; run: number }[]>();
  if (stale.length) await ctx.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries: stale.map((d) => ({ id: d.id, run: d.run })) });
  const pending = await ActionOutcomeModel.find({ status: 'pending', createdAt: trusted({ $lt: cutoff }) }, { id: 1 }).limit(500).lean<{ id: string }[]>();
  for (const a of pending) await ctx.jobs.now<ActionJobData>(ACTION_JOB, { outcomeId: a.id });
  return { deliveries: stale.length, actions: pending.length };
}
