// Webhook deliveries older than the retention period, with their attempt and result rows. A
// delivery's retries end within about 16 minutes of its creation; one resent since the cutoff
// (its next attempt or its end is newer) is kept whole, so a live delivery never loses its attempts.
// Read along the createdAt index: a run reads the old rows, not every stored one.
import type { Model } from 'mongoose';
import { trusted } from '../db/connection.ts';
import { olderThan } from '../db/olderThan.ts';
import { AttemptModel, AttemptResultModel, DeliveryModel } from './model.ts';

type Row = { _id: string; nextAttemptAt: Date | null; finishedAt: Date | null };

export async function pruneDeliveries(before: Date, chunk = 500): Promise<Record<string, number>> {
  const counts = { webhookDeliveries: 0, webhookDeliveryAttempts: 0, webhookDeliveryAttemptResults: 0 };
  const done = (at: Date | null) => !at || at < before;
  for await (const rows of olderThan<Row>(DeliveryModel as unknown as Model<unknown>, 'createdAt', before, chunk, { _id: 1, nextAttemptAt: 1, finishedAt: 1 })) {
    const ids = rows.filter((d) => done(d.nextAttemptAt) && done(d.finishedAt)).map((d) => d._id);
    if (!ids.length) continue;
    // Children first: a run cut short leaves rows that the next run finds again, never orphans.
    counts.webhookDeliveryAttempts += (await AttemptModel.deleteMany({ deliveryId: trusted({ $in: ids }) })).deletedCount;
    counts.webhookDeliveryAttemptResults += (await AttemptResultModel.deleteMany({ deliveryId: trusted({ $in: ids }) })).deletedCount;
    counts.webhookDeliveries += (await DeliveryModel.deleteMany({ _id: trusted({ $in: ids }) })).deletedCount;
  }
  return counts;
}
