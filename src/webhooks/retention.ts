// Webhook deliveries older than the retention period, with their attempt and result rows. A
// delivery's retries end within about 16 minutes of its creation; one resent since the cutoff
// (its next attempt or its end is newer) is kept whole, so a live delivery never loses its attempts.
import { trusted } from '../db/connection.ts';
import { AttemptModel, AttemptResultModel, DeliveryModel } from './model.ts';

export async function pruneDeliveries(before: Date, chunk = 500): Promise<Record<string, number>> {
  const counts = { webhookDeliveries: 0, webhookDeliveryAttempts: 0, webhookDeliveryAttemptResults: 0 };
  const lt = trusted({ $lt: before });
  for (;;) {
    const old = await DeliveryModel.find(
      { createdAt: lt, $and: [{ $or: [{ nextAttemptAt: null }, { nextAttemptAt: lt }] }, { $or: [{ finishedAt: null }, { finishedAt: lt }] }] },
      { _id: 1 },
    )
      .limit(chunk)
      .lean<Array<{ _id: string }>>();
    if (!old.length) return counts;
    const ids = old.map((d) => d._id);
    // Children first: a run cut short leaves rows that the next run finds again, never orphans.
    counts.webhookDeliveryAttempts += (await AttemptModel.deleteMany({ deliveryId: trusted({ $in: ids }) })).deletedCount;
    counts.webhookDeliveryAttemptResults += (await AttemptResultModel.deleteMany({ deliveryId: trusted({ $in: ids }) })).deletedCount;
    counts.webhookDeliveries += (await DeliveryModel.deleteMany({ _id: trusted({ $in: ids }) })).deletedCount;
    if (old.length < chunk) return counts;
  }
}
