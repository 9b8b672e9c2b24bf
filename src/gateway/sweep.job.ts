// gateway.sweep: the safety net for a crash between two writes. A delivery stored but never
// enqueued, or an action recorded but never enqueued, is enqueued again; the jobs are idempotent,
// so one that was merely slow is harmless to enqueue twice.
import type { AppContext } from '../context.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from './model.ts';
import { ACTION_JOB, PROCESS_JOB, type ActionJobData, type ProcessJobData } from './service.ts';
import { trusted } from '../db/connection.ts';

/** Deliveries per re-enqueued process job: small batches finish well inside a job lock. */
const SWEEP_BATCH = 50;
const SWEEP_LIMIT = 500;

/**
 * Enqueues what has waited longer than `olderThanMs` and was not enqueued by a sweep within that
 * time either. Under a backlog the queued jobs are merely slow; marking `sweptAt` keeps the sweep
 * from adding a copy of every waiting item each minute, which made the backlog worse.
 */
export async function performSweep(ctx: AppContext, olderThanMs: number): Promise<{ deliveries: number; actions: number }> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - olderThanMs);
  const due = { $or: [{ sweptAt: null }, { sweptAt: trusted({ $lt: cutoff }) }] };
  const stale = await GatewayDeliveryModel.find({ processedAt: null, receivedAt: trusted({ $lt: cutoff }), ...due }, { id: 1, run: 1 })
    .limit(SWEEP_LIMIT)
    .lean<{ id: string; run: number }[]>();
  for (let i = 0; i < stale.length; i += SWEEP_BATCH) {
    const batch = stale.slice(i, i + SWEEP_BATCH);
    await GatewayDeliveryModel.updateMany({ id: trusted({ $in: batch.map((d) => d.id) }) }, { $set: { sweptAt: now } });
    await ctx.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries: batch.map((d) => ({ id: d.id, run: d.run })) });
  }
  const pending = await ActionOutcomeModel.find({ status: 'pending', createdAt: trusted({ $lt: cutoff }), ...due }, { id: 1 }).limit(SWEEP_LIMIT).lean<{ id: string }[]>();
  if (pending.length) await ActionOutcomeModel.updateMany({ id: trusted({ $in: pending.map((a) => a.id) }) }, { $set: { sweptAt: now } });
  for (const a of pending) await ctx.jobs.now<ActionJobData>(ACTION_JOB, { outcomeId: a.id });
  if (stale.length || pending.length) ctx.logger.info({ deliveries: stale.length, actions: pending.length }, 'gateway sweep re-enqueued waiting work');
  return { deliveries: stale.length, actions: pending.length };
}
