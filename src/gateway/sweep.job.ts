// gateway.sweep: the safety net for a crash between two writes. A delivery stored but never
// enqueued, or an action recorded but never enqueued, is enqueued again; the jobs are idempotent,
// so one that was merely slow is harmless to enqueue twice.
import type { Model } from 'mongoose';
import type { AppContext } from '../context.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from './model.ts';
import { ACTION_JOB, PROCESS_JOB, type ActionJobData, type ProcessJobData } from './service.ts';
import { trusted } from '../db/connection.ts';

/** Deliveries (or actions) per re-enqueued job: small batches finish well inside a job lock. */
const SWEEP_BATCH = 50;
const SWEEP_LIMIT = 500;

/**
 * Enqueues what was last queued longer than `olderThanMs` ago and is still unfinished. Under a
 * backlog the queued jobs are merely slow; moving `sweptAt` keeps the sweep from adding a copy of
 * every waiting item each minute, which made the backlog worse. Each query is an index range on
 * (unfinished, sweptAt), so a run reads what is due, however much is stored or merely waiting.
 */
export async function performSweep(ctx: AppContext, olderThanMs: number): Promise<{ deliveries: number; actions: number }> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - olderThanMs);
  const stale = await due<{ id: string; run: number }>(GatewayDeliveryModel as unknown as Model<unknown>, { processedAt: null }, cutoff, { id: 1, run: 1 });
  for (let i = 0; i < stale.length; i += SWEEP_BATCH) {
    const batch = stale.slice(i, i + SWEEP_BATCH);
    await GatewayDeliveryModel.updateMany({ _id: trusted({ $in: batch.map((d) => d.id) }) }, { $set: { sweptAt: now } });
    await ctx.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries: batch.map((d) => ({ id: d.id, run: d.run })) });
  }
  const pending = (await due<{ _id: string }>(ActionOutcomeModel as unknown as Model<unknown>, { status: 'pending' }, cutoff, { _id: 1 })).map((a) => a._id);
  if (pending.length) await ActionOutcomeModel.updateMany({ _id: trusted({ $in: pending }) }, { $set: { sweptAt: now } });
  for (let i = 0; i < pending.length; i += SWEEP_BATCH) await ctx.jobs.now<ActionJobData>(ACTION_JOB, { outcomeIds: pending.slice(i, i + SWEEP_BATCH) });
  if (stale.length || pending.length) ctx.logger.info({ deliveries: stale.length, actions: pending.length }, 'gateway sweep re-enqueued waiting work');
  return { deliveries: stale.length, actions: pending.length };
}

/** Up to SWEEP_LIMIT unfinished rows last queued before the cutoff. */
function due<R>(model: Model<unknown>, unfinished: Record<string, unknown>, cutoff: Date, projection: Record<string, 1>): Promise<R[]> {
  return model.find({ ...unfinished, sweptAt: trusted({ $lt: cutoff }) }, projection).limit(SWEEP_LIMIT).lean<R[]>() as Promise<R[]>;
}
