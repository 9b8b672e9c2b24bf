// gateway.sweep: the safety net for a crash between two writes. A delivery stored but never
// enqueued, or an action recorded but never enqueued, is enqueued again; the jobs are idempotent,
// so one that was merely slow is harmless to enqueue twice.
import type { Model } from 'mongoose';
import type { AppContext } from '../context.ts';
import { ActionOutcomeModel, GatewayDeliveryModel, publicIdOf } from './model.ts';
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
  const stale = await due<{ id: string; run: number }>(GatewayDeliveryModel as unknown as Model<unknown>, { processedAt: null }, 'receivedAt', cutoff, { id: 1, run: 1 });
  for (let i = 0; i < stale.length; i += SWEEP_BATCH) {
    const batch = stale.slice(i, i + SWEEP_BATCH);
    await GatewayDeliveryModel.updateMany({ id: trusted({ $in: batch.map((d) => d.id) }) }, { $set: { sweptAt: now } });
    await ctx.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries: batch.map((d) => ({ id: d.id, run: d.run })) });
  }
  // Marked by `_id` as stored, through the driver (mongoose would cast an older row's ObjectId
  // `_id` to a string), enqueued by public id (model.ts, publicIdOf).
  const pending = await due<{ _id: unknown; id?: string }>(ActionOutcomeModel as unknown as Model<unknown>, { status: 'pending' }, 'createdAt', cutoff, { _id: 1, id: 1 });
  if (pending.length) await ActionOutcomeModel.collection.updateMany({ _id: { $in: pending.map((a) => a._id) } as never }, { $set: { sweptAt: now } });
  for (let i = 0; i < pending.length; i += SWEEP_BATCH) await ctx.jobs.now<ActionJobData>(ACTION_JOB, { outcomeIds: pending.slice(i, i + SWEEP_BATCH).map(publicIdOf) });
  if (stale.length || pending.length) ctx.logger.info({ deliveries: stale.length, actions: pending.length }, 'gateway sweep re-enqueued waiting work');
  return { deliveries: stale.length, actions: pending.length };
}

/**
 * Up to SWEEP_LIMIT unfinished rows last queued before the cutoff. Rows stored before `sweptAt` was
 * set at creation have none: they are read by that alone (few, all from before the upgrade; a
 * condition on their creation time could make the database pick an older index that ranges over
 * every waiting row) and kept when created before the cutoff.
 */
async function due<R>(model: Model<unknown>, unfinished: Record<string, unknown>, createdField: string, cutoff: Date, projection: Record<string, 1>): Promise<R[]> {
  const rows = await model.find({ ...unfinished, sweptAt: trusted({ $lt: cutoff }) }, projection).limit(SWEEP_LIMIT).lean<R[]>();
  if (rows.length >= SWEEP_LIMIT) return rows;
  const legacy = await model
    .find({ ...unfinished, sweptAt: null }, { ...projection, [createdField]: 1 })
    .limit(SWEEP_LIMIT - rows.length)
    .lean<Array<R & Record<string, Date>>>();
  return [...rows, ...legacy.filter((r) => r[createdField]! < cutoff)];
}
