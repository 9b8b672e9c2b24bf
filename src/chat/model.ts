// Conversations and their transcripts of messages (spec "Conversation", "Message"), plus the
// handoff state an agent works with. userData is stored as given: the spec says it is not
// validated or trusted.
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

/**
 * `Open` is our name for the state before escalation (the spec leaves it "not shown");
 * Escalated, Active and Resolved are the states the webhooks report.
 */
export const CONVERSATION_STATES = ['Open', 'Escalated', 'Active', 'Resolved'] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];

/** `agent` marks replies written by a human agent (see docs/CHAT.md). */
export const MESSAGE_ROLES = ['user', 'assistant', 'tool', 'agent'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

const AgentSchema = new Schema({ name: String, email: String }, { _id: false });

const ConversationSchema = new Schema(
  {
    /** Equal to `id`, a UUIDv7 (timeOrderedId, clock.ts): lookups by id are `_id` reads and `_id` order is creation order. */
    _id: { type: String, required: true },
    id: { type: String, required: true, unique: true },
    botId: { type: String, required: true },
    teamId: { type: String, required: true },
    channelId: { type: String, default: null },
    userData: { type: Schema.Types.Mixed, default: {} },
    initialMessage: { type: String, default: null },
    state: { type: String, enum: CONVERSATION_STATES, default: 'Open' },
    userEmail: { type: String, default: null },
    agent: { type: AgentSchema, default: null },
    createdAt: { type: Date, required: true },
  },
  { minimize: false },
);
ConversationSchema.index({ botId: 1, _id: 1 });
// The agents' inbox and the state-filtered list: a page by _id within one bot and state.
ConversationSchema.index({ botId: 1, state: 1, _id: 1 });

const SourceSchema = new Schema({ rowId: String, dataSourceId: String }, { _id: false });

/** One message of a conversation, stored inside the conversation's transcript. */
const MessageSchema = new Schema(
  {
    id: { type: String, required: true },
    role: { type: String, enum: MESSAGE_ROLES, required: true },
    message: { type: String, default: '' },
    /** Knowledge the assistant reply was built from. */
    sources: { type: [SourceSchema], default: undefined },
    /** Power-up activity (role `tool`). */
    toolName: { type: String, default: undefined },
    /** Who wrote an `agent` reply. */
    agent: { type: AgentSchema, default: undefined },
    createdAt: { type: Date, required: true },
  },
  { _id: false },
);

/**
 * A conversation's messages in order, in one document keyed by the conversation id. FerretDB v1
 * answers only `_id` equality without scanning the collection (docs/FERRETDB.md), so history and
 * the messages list are one `_id` read however many messages the service holds.
 */
const TranscriptSchema = new Schema(
  {
    _id: { type: String, required: true },
    botId: { type: String, required: true },
    messages: { type: [MessageSchema], default: [] },
  },
  { minimize: false },
);

export type Conversation = InferSchemaType<typeof ConversationSchema>;
export type Message = InferSchemaType<typeof MessageSchema>;
export type Transcript = InferSchemaType<typeof TranscriptSchema>;
export interface Agent {
  name: string;
  email: string;
}
export interface Source {
  rowId: string;
  dataSourceId: string;
}

export const ConversationModel = mongoose.model('Conversation', ConversationSchema);
export const TranscriptModel = mongoose.model('Transcript', TranscriptSchema);
