// The upgrade from releases that marked dispatched events with rows (`eventdispatches`) and swept
// the events created since a mark (`sweepmarks`, 'events.dispatch'): the events of that last
// window without a dispatch row are copied into the outbox (the sweep dispatches them and finds
// them stored already), then the rows and the mark go. Events before the mark were dispatched or given up by the old sweep. Idempotent, so
// workers starting together may all run it.
import mongoose, { type Model } from 'mongoose';
import { createdSince } from '../db/createdSince.ts';
import { insertNew } from '../db/insertNew.ts';
import { EventModel, UndispatchedEventModel, type StoredEvent } from './model.ts';

const OLD_MARK = 'events.dispatch';
const BATCH = 1_000;

/** Puts the undispatched events an older release left into the outbox; returns how many. */
export async function recordUndispatchedEvents(): Promise<number> {
  const db = mongoose.connection.db!;
  const marks = db.collection<{ _id: string; at: Date }>('sweepmarks');
  // The old release's dispatch marks, one per dispatched event (`_id` = event id).
  const dispatches = db.collection<{ _id: string }>('eventdispatches');
  const mark = await marks.findOne({ _id: OLD_MARK });
  if (!mark && !(await dispatches.findOne({}, { projection: { _id: 1 } }))) return 0;
  let recorded = 0;
  for await (const events of createdSince<StoredEvent & { _id: unknown }>(EventModel as unknown as Model<unknown>, mark?.at ?? new Date(0), BATCH)) {
    const ids = events.map((e) => e.id).sort();
    const marked = new Set((await dispatches.find({ _id: { $gte: ids[0]!, $lte: ids.at(-1)! } }, { projection: { _id: 1 } }).toArray()).map((m) => m._id));
    const open = events.filter((e) => !e.dispatchedAt && !marked.has(e.id)).map((e) => ({ _id: e.id, at: e.createdAt, event: e }));
    recorded += open.length - (await insertNew(UndispatchedEventModel.collection, open)).size;
  }
  await marks.deleteOne({ _id: OLD_MARK });
  await dispatches.drop().catch(() => undefined);
  return recorded;
}
