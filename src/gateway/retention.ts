// Gateway deliveries received before the retention period and processed in their latest run, with
// their rule and action outcomes and action claims, and re-sync slots of hours long gone. A
// delivery not yet processed (or replayed and not processed again) is kept. Once a delivery is
// deleted, a sender that sends the same delivery id again is no longer taken for a duplicate.
// Read along the (processedAt, sweptAt) index: processed before the cutoff implies received before
// it, and a run reads the old rows, not every stored one.
import type { Model } from 'mongoose';
import { trusted } from '../db/connection.ts';
import { olderThan } from '../db/olderThan.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryModel, ResyncAttemptModel, RuleOutcomeModel } from './model.ts';

type Row = { _id: string; id: string; run: number; processedRun: number };

export async function pruneGateway(before: Date, chunk = 500): Promise<Record<string, number>> {
  const counts = { gatewayDeliveries: 0, gatewayRuleOutcomes: 0, gatewayActionOutcomes: 0, gatewayActionClaims: 0, gatewayResyncAttempts: 0 };
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
      counts.gatewayDeliveries += (await GatewayDeliveryModel.deleteMany({ _id: trusted({ $in: done.map((r) => r._id) }) })).deletedCount;
    }
  }
  counts.gatewayResyncAttempts = (await ResyncAttemptModel.deleteMany({ hour: lt })).deletedCount;
  return counts;
}
