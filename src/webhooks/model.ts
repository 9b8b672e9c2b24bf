// Outgoing webhooks (spec "Webhook", "Events"): a Webhook is one bot's hook configuration; a
// Delivery is one event sent to one hook, with its final request fixed at creation, a claim per
// try written before the request leaves (attempt 1's in the delivery row, later ones as attempt
// rows), and one result row per finished try. Stored layout of release 1.0.0 (docs/DATA_MODEL.md):
// every field below is stored on every row, null where it holds nothing.
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { EVENT_TYPES } from '../events/model.ts';

export const WEBHOOK_TYPES = EVENT_TYPES;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
/** Only the sync hooks can be narrowed to some data sources (spec "Webhook"). */
export const SCOPED_TYPES: readonly WebhookType[] = ['sync.success', 'sync.failure'];
export const CUSTOM_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;
export type CustomMethod = (typeof CUSTOM_METHODS)[number];

const CustomPayloadSchema = new Schema(
  {
    enabled: { type: Boolean, default: false },
    method: { type: String, enum: CUSTOM_METHODS, default: 'POST' },
    headers: { type: Schema.Types.Mixed, default: {} },
    body: { type: String, default: '' },
  },
  { _id: false, minimize: false },
);

// Ids are UUIDv7 and double as `_id`: FerretDB v1 answers only `_id` lookups without scanning the
// collection (docs/FERRETDB.md), and `_id` order stays creation order for paging.
const WebhookSchema = new Schema(
  {
    _id: { type: String, required: true },
    id: { type: String, required: true, unique: true },
    botId: { type: String, required: true, index: true },
    teamId: { type: String, required: true },
    type: { type: String, enum: WEBHOOK_TYPES, required: true },
    enabled: { type: Boolean, default: false },
    url: { type: String, required: true },
    /**
     * Stored in the clear on purpose: it is sent as X-Secret-Key and keys the signature of every
     * delivery, so it must be readable at send time (a hash would not do). See docs/WEBHOOKS.md.
     */
    secret: { type: String, required: true },
    /** Empty = every data source of the bot (sync types only). */
    dataSourceIds: { type: [String], default: [] },
    customPayload: { type: CustomPayloadSchema, default: () => ({}) },
    /** Also send the Standard Webhooks headers (webhook-id, -timestamp, -signature); off = the spec's set only. */
    standardWebhooks: { type: Boolean, default: false },
    /** Waits between attempts in seconds (attempts = waits + 1); absent = the service's schedule (the spec's). */
    retryDelaysSeconds: { type: [Number], default: undefined },
    /** This hook's attempts in flight at once across every process; null = WEBHOOK_HOOK_CONCURRENCY (fleetLimits.ts). */
    concurrency: { type: Number, default: null },
    /** This hook's attempts started per second across every process; null = no limit. */
    ratePerSecond: { type: Number, default: null },
    /** Endpoint health (health.ts): since when attempts failed without a success; null = healthy. */
    failingSince: { type: Date, default: null },
    /** Set when Relay disabled the hook itself ('failing'); cleared when it is enabled again. */
    disabledAt: { type: Date, default: null },
    disabledReason: { type: String, default: null },
  },
  { timestamps: true, minimize: false },
);
WebhookSchema.index({ botId: 1, type: 1, enabled: 1 });
// A bot's webhooks page by _id.
WebhookSchema.index({ botId: 1, _id: 1 });

export const ATTEMPT_STATUSES = ['pending', 'succeeded', 'failed', 'interrupted'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** How an attempt ended; `retryAt` is when the next one is due (null after a success or the last one). */
const outcomeFields = {
  finishedAt: { type: Date, required: true },
  httpStatus: { type: Number, default: null },
  durationMs: { type: Number, default: null },
  error: { type: new Schema({ code: String, message: String }, { _id: false }), default: null },
  responseBody: { type: String, default: null },
  responseTruncated: { type: Boolean, default: false },
  retryAt: { type: Date, default: null },
};

// Attempts live in their own collection: inserting the row under the unique (deliveryId, number)
// index is how a worker claims an attempt (attempt 1 of a new delivery is claimed in the delivery
// row itself: `firstClaim`). FerretDB v1 does not make conditional updates atomic
// (two concurrent findOneAndUpdate calls can both match), but it does enforce unique indexes.
const AttemptSchema = new Schema(
  {
    /** attemptKey(deliveryId, number): the claim is an `_id` insert. */
    _id: { type: String, required: true },
    deliveryId: { type: String, required: true },
    number: { type: Number, required: true },
    startedAt: { type: Date, required: true },
    /** Until when the attempt may still be in flight; after it, an attempt without a result counts as interrupted. */
    leaseUntil: { type: Date, required: true },
    /** The process that claimed it (its Agenda name): which worker holds an attempt in flight. */
    runner: { type: String, default: null },
  },
  { minimize: false, versionKey: false },
);
AttemptSchema.index({ deliveryId: 1, number: 1 }, { unique: true });

export const RESULT_STATUSES = ['succeeded', 'failed', 'interrupted'] as const;

// How an attempt ended, written once by insert under the attempt's key: the first outcome recorded
// (the request's, or `interrupted` by a runner that found the lease run out) is the one that counts.
// An insert, not an update of the attempt row, because FerretDB v1 runs each update statement on
// its own (about 1 ms each even in a bulk write) while an `insertMany` costs about 0.1 ms a
// document: first attempts record their outcomes in batches (docs/WEBHOOKS.md, "Recording").
const AttemptResultSchema = new Schema(
  {
    /** attemptKey(deliveryId, number), the same as the attempt row's. */
    _id: { type: String, required: true },
    deliveryId: { type: String, required: true },
    /** The delivery's hook: the log reads a page's results by the hook's `_id` range beside the page itself (deliveries.ts). */
    webhookId: { type: String, required: true },
    number: { type: Number, required: true },
    status: { type: String, enum: RESULT_STATUSES, required: true },
    ...outcomeFields,
  },
  { minimize: false, versionKey: false },
);
AttemptResultSchema.index({ deliveryId: 1 });
// A log page's results in one range read, beside the page (deliveries.ts).
AttemptResultSchema.index({ webhookId: 1, _id: 1 });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery's request as built at creation (request.ts); header names are storable keys (schema.ts). */
const RequestSchema = new Schema(
  {
    method: { type: String, required: true },
    url: { type: String, required: true },
    headers: { type: Schema.Types.Mixed, required: true },
    body: { type: String, default: '' },
  },
  { _id: false, minimize: false },
);

const DeliverySchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The deliveryId (= `_id`): body field and X-Service-Delivery-Id header, stable across retries. */
    id: { type: String, required: true, unique: true },
    eventId: { type: String, required: true },
    webhookId: { type: String, required: true },
    botId: { type: String, required: true },
    event: { type: String, enum: WEBHOOK_TYPES, required: true },
    /** The exact request every attempt sends; only the signature headers are added at send time. */
    request: { type: RequestSchema, required: true },
    /** Template tokens left unresolved when the custom payload was rendered (sent literally); empty when none. */
    unresolved: { type: [String], default: [] },
    status: { type: String, enum: DELIVERY_STATUSES, required: true, default: 'pending' },
    /** Number of the latest attempt (the attempt rows are the truth; this is for listing). */
    attemptCount: { type: Number, default: 0 },
    /** The hook's own waits between attempts (ms, before jitter), copied at creation; null = the service's. */
    retryDelaysMs: { type: [Number], default: null },
    /** Attempt number after which the delivery fails; a resend raises it by one full schedule. */
    attemptLimit: { type: Number, required: true },
    /** Attempts made before the current run (0, or the last attempt number when resent). */
    runAfter: { type: Number, default: 0 },
    nextAttemptAt: { type: Date, default: null },
    /**
     * The claim of attempt 1, written with the row by the fan-out, whose process then sends it
     * (dispatcher.ts): inserting the row is the claim, so first attempts need no attempt row of
     * their own (a third of the documents of a delivery burst). Null on a delivery created failed
     * (its request could not be built), which is never attempted.
     */
    firstClaim: { type: new Schema({ startedAt: Date, leaseUntil: Date }, { _id: false }), default: null },
    /**
     * True while the row is as the fan-out created it: a successful first attempt leaves it so (its
     * result row says delivered); the sweep checks such rows through their batch's record
     * (UnfinishedFirstAttempts, sweep.job.ts).
     * Every later write to the row sets it false.
     */
    fresh: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    cancelReason: { type: String, default: null },
    /**
     * Why a delivery failed before any attempt (unsendable.ts: `payload_too_large`, `store_failed`,
     * `dispatch_abandoned`, ...): such a row has no request to send and is never attempted or
     * resent. Null on every other row.
     */
    error: { type: new Schema({ code: String, message: String }, { _id: false }), default: null },
    /** A test send (testSend.ts): logged with its one attempt, never retried or resent. */
    test: { type: Boolean, default: false },
  },
  { minimize: false },
);
// One delivery per event and hook: the event sweeper's re-dispatch never duplicates one.
DeliverySchema.index({ eventId: 1, webhookId: 1 }, { unique: true });
DeliverySchema.index({ webhookId: 1, _id: 1 });
// The sweep's settled rows overdue (sweep.job.ts); `fresh` before the time keeps the fresh rows out of its range.
DeliverySchema.index({ status: 1, fresh: 1, nextAttemptAt: 1 });
// Retention's range (retention.ts).
DeliverySchema.index({ createdAt: 1, _id: 1 });

/**
 * The first attempts one fan-out batch left to its process, named by the batch's events
 * (`eventIds`): written before the deliveries (alongside the hooks' read, so it costs the fan-out
 * no extra wait) and deleted once every first attempt of the batch is recorded (dispatcher.ts).
 * The sweep reads this small collection for what a crash left undone, instead of every delivery
 * created since its last run (sweep.job.ts).
 */
const UnfinishedFirstAttemptsSchema = new Schema(
  { _id: { type: String, required: true }, at: { type: Date, required: true, index: true }, eventIds: { type: [String], required: true } },
  { versionKey: false },
);

/**
 * Each hook's limits across every process (fleetLimits.ts, src/db/sharedLimits.ts): its slots,
 * `_id` = `<hook>#s<nnnn>` {`holder`, `expiresAt`}, and its rate window, `<hook>#w`
 * {`windowStart`, `count`}. Written by the driver, read only by `_id`.
 */
const WebhookLimitSchema = new Schema({ _id: { type: String, required: true } }, { strict: false, versionKey: false });

export type Webhook = InferSchemaType<typeof WebhookSchema>;
export type Delivery = InferSchemaType<typeof DeliverySchema>;
export type AttemptClaim = InferSchemaType<typeof AttemptSchema>;
export type AttemptResult = InferSchemaType<typeof AttemptResultSchema>;
/** An attempt as read: its claim with its result (attempts.ts); `pending` and no outcome until the result is stored. */
export type DeliveryAttempt = AttemptClaim &
  Pick<AttemptResult, 'httpStatus' | 'durationMs' | 'error' | 'responseBody' | 'responseTruncated' | 'retryAt'> & { status: AttemptStatus; finishedAt: Date | null };
export interface DeliveryRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Zero-padded so `_id` order is attempt order. */
export const attemptKey = (deliveryId: string, number: number) => `${deliveryId}#${String(number).padStart(4, '0')}`;

export const WebhookModel = mongoose.model('Webhook', WebhookSchema);
export const DeliveryModel = mongoose.model('WebhookDelivery', DeliverySchema);
export const AttemptModel = mongoose.model('WebhookDeliveryAttempt', AttemptSchema);
export const AttemptResultModel = mongoose.model('WebhookDeliveryAttemptResult', AttemptResultSchema, 'webhookdeliveryattemptresults');
export const UnfinishedFirstAttemptsModel = mongoose.model('UnfinishedFirstAttempts', UnfinishedFirstAttemptsSchema, 'webhookfirstattempts');
export const WebhookLimitModel = mongoose.model('WebhookLimit', WebhookLimitSchema, 'webhooklimits');
