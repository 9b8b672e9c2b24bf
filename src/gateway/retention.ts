// Gateway deliveries received before the retention period and processed in their latest run, with
// their bodies, rule and action outcomes and action claims, and re-sync slots of hours long gone. A
// delivery not yet processed (or replayed and not processed again) is kept. Once a delivery is
// deleted, a sender that sends the same delivery id again is no longer taken for a duplicate.
// Read along the (processedAt, sweptAt) index: processed before the cutoff implies received before
// it, and a run reads the old rows, not every stored one.
import type { Model } from 'mongoose';
import { trusted } from '../db/connection.ts';
import { olderThan } from '../db/olderThan.ts';
import { pagesById } from '../db/pagesById.ts';
import { timeOrderedIdBound } from '../clock.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryBodyModel, GatewayDeliveryModel, ResyncAttemptModel, RuleOutcomeModel } from './model.ts';

type Row = { _id: string; id: string; run: number; processedRun: number };

export async function pruneGateway(before: Date, chunk = 500): Promise<Record<string, number>> {
  const counts = { gatewayDeliveries: 0, gatewayDeliveryBodies: 0, gatewayRuleOutcomes: 0, gatewayActionOutcomes: 0, gatewayActionClaims: 0, gatewayResyncAttempts: 0 };
  const lt = trusted({ $lt: before });
  for await (const rows of olderThan<Row>(GatewayDeliveryModel as unknown as Model<unknown>, 'processedAt', before, chunk, { _id: 1, id: 1, run: 1, processedRun: 1 })) {
    // A replay not yet processed again is kept.
    const done = rows.filter((r) => r.processedRun >= r.run);
    if (done.length) {
      const ids = done.map((r) => r.id);
      const outcomes = await ActionOutcomeModel.find({ delivery: trusted({ $in: ids }) }, { _id: 1 }).lean<Array<{ _id: string }>>();
      const outcomeIds = outcomes.map((o) => o._id);
      // Children first: a run cut short leaves rows that the next run finds again, never orphans.
      if (outcomeIds.length) counts.gatewayActionClaims += (await ActionClaimModel.deleteMany({ outcome: trusted({ $in: outcomeIds }) })).deletedCount;
      counts.gatewayActionOutcomes += (await ActionOutcomeModel.deleteMany({ delivery: trusted({ $in: ids }) })).deletedCount;
      counts.gatewayRuleOutcomes += (await RuleOutcomeModel.deleteMany({ delivery: trusted({ $in: ids }) })).deletedCount;
      counts.gatewayDeliveryBodies += (await GatewayDeliveryBodyModel.deleteMany({ _id: trusted({ $in: ids }) })).deletedCount;
      counts.gatewayDeliveries += (await GatewayDeliveryModel.deleteMany({ _id: trusted({ $in: done.map((r) => r._id) }) })).deletedCount;
    }
  }
  counts.gatewayResyncAttempts = (await ResyncAttemptModel.deleteMany({ hour: lt })).deletedCount;
  counts.gatewayDeliveryBodies += await pruneOrphanBodies(before, chunk);
  return counts;
}

/**
 * Bodies older than the cutoff whose delivery is not stored: the intake stores a body before its
 * delivery (state.ts), so a crash between the two, or an insert that failed as a whole, leaves one.
 * Their `_id` is the delivery's time-ordered id, so the old ones are an index range: besides such
 * orphans it holds only the bodies of old deliveries still unprocessed, which are kept.
 */
async function pruneOrphanBodies(before: Date, chunk: number): Promise<number> {
  let removed = 0;
  const old = pagesById<{ _id: string }>(GatewayDeliveryBodyModel.collection, {}, chunk, { _id: 1 }, { lt: timeOrderedIdBound(before.getTime()) });
  for await (const bodies of old) {
    const ids = bodies.map((b) => b._id);
    const stored = new Set((await GatewayDeliveryModel.find({ _id: trusted({ $in: ids }) }, { _id: 1 }).lean<Array<{ _id: string }>>()).map((d) => d._id));
    const orphans = ids.filter((id) => !stored.has(id));
    if (orphans.length) removed += (await GatewayDeliveryBodyModel.deleteMany({ _id: trusted({ $in: orphans }) })).deletedCount;
  }
  return removed;
}
