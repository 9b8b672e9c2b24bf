// Events older than the retention period, with their failure counts, and any left in the outbox
// that long (still retried by the sweep: older than the retention period, given up anyway).
import { trusted } from '../db/connection.ts';
import { EventDispatchFailureModel, EventModel, UndispatchedEventModel } from './model.ts';

export async function pruneEvents(before: Date): Promise<Record<string, number>> {
  const lt = trusted({ $lt: before });
  const undispatchedEvents = (await UndispatchedEventModel.deleteMany({ at: lt })).deletedCount;
  const eventDispatchFailures = (await EventDispatchFailureModel.deleteMany({ lastAt: lt })).deletedCount;
  const events = (await EventModel.deleteMany({ createdAt: lt })).deletedCount;
  return { events, undispatchedEvents, eventDispatchFailures };
}
