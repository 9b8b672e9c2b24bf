// Events older than the retention period, with their dispatch rows and failure counts. The event
// sweep has long passed them (it runs every minute), so nothing will dispatch them again.
import { trusted } from '../db/connection.ts';
import { EventDispatchFailureModel, EventDispatchModel, EventModel } from './model.ts';

export async function pruneEvents(before: Date): Promise<Record<string, number>> {
  const lt = trusted({ $lt: before });
  // A dispatch row is never older than its event, so these belong to events deleted here too.
  const eventDispatches = (await EventDispatchModel.deleteMany({ at: lt })).deletedCount;
  const eventDispatchFailures = (await EventDispatchFailureModel.deleteMany({ lastAt: lt })).deletedCount;
  const events = (await EventModel.deleteMany({ createdAt: lt })).deletedCount;
  return { events, eventDispatches, eventDispatchFailures };
}
