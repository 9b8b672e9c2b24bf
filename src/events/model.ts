// An Event is a fact the service publishes (spec "Events"): sync results and conversation moves.
// It is stored first, then handed to subscribers (the webhooks fan-out); `dispatchedAt` records
// that the hand-off finished, so a sweeper can redo it after a crash.
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

export const EVENT_TYPES = [
  'sync.success',
  'sync.failure',
  'conversation.started',
  'conversation.escalated',
  'conversation.claimed',
  'conversation.released',
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
    dispatchedAt: { type: Date, default: null, index: true },
  },
  { minimize: false },
);

export type StoredEvent = InferSchemaType<typeof EventSchema> & { _id: mongoose.Types.ObjectId };
export const EventModel = mongoose.model('Event', EventSchema);
