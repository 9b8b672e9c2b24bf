// Upgrades of delivery rows an older release left, run by each worker at start. From releases
// whose sweep read the fresh deliveries created since a mark (`sweepmarks`
// 'webhooks.fresh-deliveries', before that `webhooksweepmarks`): the fresh rows of that last
// window get records of unfinished first attempts (firstAttempts.ts), then the marks and the old
// (fresh, createdAt, _id) index go. Rows before the mark were checked by the old sweep. And fresh
// rows with attempt rows stop being fresh (unmarkFreshRowsWithAttemptRows). Both idempotent, so
// workers starting together may all run them; the sweep skips rows already handled.
import mongoose, { type Model } from 'mongoose';
import { createdSince } from '../db/createdSince.ts';
import { pagesById } from '../db/pagesById.ts';
import { trusted } from '../db/connection.ts';
import { byParent } from '../db/byParent.ts';
import { timeOrderedId } from '../clock.ts';
import { AttemptModel, AttemptResultModel, DeliveryModel, UnfinishedFirstAttemptsModel } from './model.ts';

const OLD_MARK = 'webhooks.fresh-deliveries';
const BATCH = 1_000;

/** Records the fresh deliveries an older release's sweep had not checked yet; returns how many. */
export async function recordUncheckedFreshDeliveries(): Promise<number> {
  const db = mongoose.connection.db!;
  const mark = await db.collection<{ _id: string; at: Date }>('sweepmarks').findOne({ _id: OLD_MARK });
  const older = mark ? null : await db.collection<{ _id: string; checkedUpTo: Date }>('webhooksweepmarks').findOne({ _id: OLD_MARK });
  if (!mark && !older) return 0;
  let recorded = 0;
  type Row = { _id: string; eventId: string; createdAt: Date; fresh: boolean };
  for await (const rows of createdSince<Row>(DeliveryModel as unknown as Model<unknown>, mark?.at ?? older!.checkedUpTo, BATCH, { _id: 1, eventId: 1, createdAt: 1, fresh: 1 })) {
    const fresh = rows.filter((row) => row.fresh);
    if (!fresh.length) continue;
    await UnfinishedFirstAttemptsModel.collection.insertOne({ _id: timeOrderedId(), at: fresh.at(-1)!.createdAt, eventIds: [...new Set(fresh.map((row) => row.eventId))] } as never);
    recorded += fresh.length;
  }
  await db.collection<{ _id: string }>('sweepmarks').deleteOne({ _id: OLD_MARK });
  await db.collection('webhooksweepmarks').drop().catch(() => undefined);
  await DeliveryModel.collection.dropIndex('fresh_1_createdAt_1__id_1').catch(() => undefined);
  return recorded;
}

/** The `upgrades` record of a one-off upgrade: present once it has run to its end. */
const upgrades = () => mongoose.connection.db!.collection<{ _id: string; at: Date }>('upgrades');
const upgraded = async (name: string) => (await upgrades().findOne({ _id: name })) !== null;
const recordUpgraded = (name: string) => upgrades().updateOne({ _id: name }, { $set: { at: new Date() } }, { upsert: true });

const UNMARKED = 'webhooks.fresh-rows-with-attempt-rows';

/**
 * Rows of releases that claimed attempt rows for a delivery row still fresh (a first attempt sent
 * late, a settle that failed) stop being fresh, since readers skip the attempt rows of fresh rows
 * (attempts.ts). One walk of the attempt rows (retries only), recorded in `upgrades`; returns how
 * many rows changed.
 */
export async function unmarkFreshRowsWithAttemptRows(): Promise<number> {
  if (await upgraded(UNMARKED)) return 0;
  let unmarked = 0;
  for await (const rows of pagesById<{ _id: string; deliveryId: string }>(AttemptModel.collection, {}, BATCH, { deliveryId: 1 })) {
    const ids = [...new Set(rows.map((row) => row.deliveryId))];
    unmarked += (await DeliveryModel.updateMany({ _id: trusted({ $in: ids }), fresh: true }, { $set: { fresh: false } })).modifiedCount;
  }
  await recordUpgraded(UNMARKED);
  return unmarked;
}

const RESULT_HOOKS = 'webhooks.result-hook-ids';

/**
 * Result rows of older releases get their delivery's hook id, so the log reads them by the
 * hook's range beside its page (attempts.ts, resultsOfHook); until then it reads them by id, as
 * before. One walk of the deliveries in `_id` order, oldest first (the log's first pages are the
 * oldest), recorded in `upgrades` once it ends; it runs beside traffic and stops between batches
 * when the worker does (the next start walks again: rows already filled are not written). Returns
 * how many rows changed.
 */
export async function fillResultHookIds(signal?: AbortSignal): Promise<number> {
  if (await upgraded(RESULT_HOOKS)) return 0;
  let filled = 0;
  for await (const rows of pagesById<{ _id: string; webhookId: string }>(DeliveryModel.collection, {}, BATCH, { webhookId: 1 })) {
    if (signal?.aborted) return filled;
    for (const [webhookId, ofHook] of byParent(rows, (row) => row.webhookId)) {
      // `null` matches a missing field too; rows already filled (by this release's writes) are left.
      const ids = ofHook.map((row) => row._id);
      filled += (await AttemptResultModel.collection.updateMany({ deliveryId: { $in: ids }, webhookId: null } as never, { $set: { webhookId } })).modifiedCount;
    }
  }
  await recordUpgraded(RESULT_HOOKS);
  return filled;
}
