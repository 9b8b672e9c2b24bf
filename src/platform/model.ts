// Tenancy: a Team owns Bots; a Bot has API channels. Team carries its plan, limit overrides and usage.
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { PLANS } from '../plans.ts';

const LimitsSchema = new Schema(
  { dataSourcesPerBot: Number, storageTokens: Number, chatTokens: Number, maxMessageLength: Number },
  { _id: false },
);

const TeamSchema = new Schema(
  {
    id: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    plan: { type: String, enum: PLANS, required: true, default: 'standard' },
    /** Per-team overrides of the plan's limits; unset fields fall back to the plan. */
    limits: { type: LimitsSchema, default: {} },
    usage: {
      storageTokens: { type: Number, default: 0 },
      chatTokens: { type: Number, default: 0 },
    },
  },
  { timestamps: true },
);

const BotSchema = new Schema(
  {
    id: { type: String, required: true, unique: true },
    teamId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    instructions: { type: String, default: 'You are a helpful assistant. Answer from the knowledge you were given.' },
    welcomeMessage: { type: String, default: 'Hello! How can I help you today?' },
    /** Overrides the plan's maximum message length when set. */
    maxMessageLength: { type: Number, default: null },
    powerUps: { type: [String], default: ['human-handoff'] },
    /**
     * Set to a fresh random value each time the bot's live knowledge changes (a sync commits, a data
     * source is removed: knowledge/store.ts). The chat reads the bot anyway, so every process can
     * keep the bot's segment list until this changes instead of reading it per question.
     */
    knowledgeStamp: { type: String, default: null },
  },
  { timestamps: true },
);

const ApiChannelSchema = new Schema(
  {
    id: { type: String, required: true, unique: true },
    botId: { type: String, required: true, index: true },
    teamId: { type: String, required: true },
    name: { type: String, default: 'API' },
    /** sha256 of the secret key; the key itself is shown once at creation or rotation. */
    secretHash: { type: String, required: true },
    enabled: { type: Boolean, default: true },
  },
  { timestamps: true },
);

/**
 * A bootstrap's claim on a team name; the unique _id stops two processes (two servers, or the
 * offline CLI beside a server) from bootstrapping one name at once. teamId is set once it exists.
 */
const BootstrapClaimSchema = new Schema({
  _id: { type: String, required: true },
  teamId: { type: String, default: null },
  createdAt: { type: Date, required: true },
});

export type Team = InferSchemaType<typeof TeamSchema>;
export type Bot = InferSchemaType<typeof BotSchema>;
export type ApiChannel = InferSchemaType<typeof ApiChannelSchema>;

export const TeamModel = mongoose.model('Team', TeamSchema);
export const BotModel = mongoose.model('Bot', BotSchema);
export const ApiChannelModel = mongoose.model('ApiChannel', ApiChannelSchema);
export const BootstrapClaimModel = mongoose.model('BootstrapClaim', BootstrapClaimSchema);
