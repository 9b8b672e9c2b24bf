// An Event is a fact the service publishes (spec "Events"): sync results and conversation moves.
// It is written to an outbox first and moved to the events once subscribers (the webhooks fan-out)
// took it, so a sweeper reads only what a crash left undone.
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

export const EVENT_TYPES = [
  'sync.success',
  'sync.failure',
  'conversation.started',
  'conversation.escalated',
  'conversation.claimed',
  'conversation.released',
  /** A hook disabled because its endpoint kept failing (webhooks/health.ts); not in the spec. */
  'webhook.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const EventSchema = new Schema(
  {
    id: { type: String, required: true, unique: true },
    type: { type: String, enum: EVENT_TYPES, required: true },
    teamId: { type: String, required: true },
    botId: { type: String, required: true, index: true },
    dataSourceId: { type: String, default: null },
    conversationId: { type: String, default: null },
    /** The spec's payload for this event, without `deliveryId` (added per delivery). */
    payload: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
  },
  { minimize: false },
);
EventSchema.index({ createdAt: 1, _id: 1 });

/**
 * The outbox: an event not yet handed to every subscriber (`_id` = event id), written by emit in
 * place of the event and moved to the events collection in batches once dispatched. The sweep
 * reads this small collection, not the events (on FerretDB a read of the events by time cost what
 * every event since the last run cost). One insert per emit, as before the outbox: a record of its
 * own before the event was a second commit on every emit's path, and cut the webhook burst by a third.
 */
const UndispatchedEventSchema = new Schema(
  { _id: { type: String, required: true }, at: { type: Date, required: true, index: true }, event: { type: Schema.Types.Mixed, required: true } },
  { versionKey: false, minimize: false },
);

/**
 * An event whose dispatch by the sweep failed for a reason other than the database being away:
 * how often, and the last error. After MAX_SWEEP_TRIES the sweep gives it up (`abandonedAt`) so one
 * event that always fails cannot hold back the sweep of every event after it.
 */
const EventDispatchFailureSchema = new Schema(
  { _id: { type: String, required: true }, tries: { type: Number, required: true }, lastError: { type: String, required: true }, lastAt: { type: Date, required: true }, abandonedAt: { type: Date, default: null } },
  { versionKey: false },
);
// Retention's range of old failure counts (retention.ts).
EventDispatchFailureSchema.index({ lastAt: 1 });

export type StoredEvent = InferSchemaType<typeof EventSchema> & { _id: mongoose.Types.ObjectId };
export const EventModel = mongoose.model('Event', EventSchema);
export const UndispatchedEventModel = mongoose.model('UndispatchedEvent', UndispatchedEventSchema, 'undispatchedevents');
export const EventDispatchFailureModel = mongoose.model('EventDispatchFailure', EventDispatchFailureSchema, 'eventdispatchfailures');
