// Gateway deliveries received before the retention period and processed in their latest run, with
// their rule and action outcomes and action claims, and re-sync slots of hours long gone. A
// delivery not yet processed (or replayed and not processed again) is kept. Once a delivery is
// deleted, a sender that sends the same delivery id again is no longer taken for a duplicate.
import { trusted } from '../db/connection.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryModel, ResyncAttemptModel, RuleOutcomeModel } from './model.ts';

type Row = { _id: string; id: string; run: number; processedRun: number };

export async function pruneGateway(before: Date, chunk = 500): Promise<Record<string, number>> {
  const counts = { gatewayDeliveries: 0, gatewayRuleOutcomes: 0, gatewayActionOutcomes: 0, gatewayActionClaims: 0, gatewayResyncAttempts: 0 };
  const lt = trusted({ $lt: before });
  let after: string | null = null;
  for (;;) {
    // By `_id` from where the last chunk ended: rows kept (not processed) are not read again.
    const rows: Row[] = await GatewayDeliveryModel.find({ receivedAt: lt, processedAt: trusted({ $ne: null }), ...(after === null ? {} : { _id: trusted({ $gt: after }) }) }, { _id: 1, id: 1, run: 1, processedRun: 1 })
      .sort({ _id: 1 })
      .limit(chunk)
      .lean<Row[]>();
    if (!rows.length) break;
    after = rows.at(-1)!._id;
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
    if (rows.length < chunk) break;
  }
  counts.gatewayResyncAttempts = (await ResyncAttemptModel.deleteMany({ hour: lt })).deletedCount;
  return counts;
}
