// The gateway's own records: deliveries received (one per source + deliveryId), what each rule
// decided for a run of a delivery, and the outcome of each planned action. Nothing here refers to
// the API's collections: the gateway only knows what crossed the wire. Stored layout of release
// 1.0.0 (docs/DATA_MODEL.md): every field below is stored on every row, null where it holds nothing.
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { nameUuid } from '../db/byId.ts';

// Records are stored under `_id` = their public `id` (FerretDB v1 finds nothing else without a
// scan; docs/FERRETDB.md).
function idFollowsPublicId(this: { _id?: unknown; id?: unknown }) {
  if (this._id == null) this._id = this.id;
}
const DeliverySchema = new Schema(
  {
    _id: { type: String },
    /** Our id for the stored delivery (UUID); admin URLs use it. */
    id: { type: String, required: true, unique: true },
    source: { type: String, required: true },
    /** The sender's delivery id (X-Service-Delivery-Id / body deliveryId). */
    deliveryId: { type: String, required: true },
    event: { type: String, required: true },
    test: { type: Boolean, required: true },
    /** Which of deliveryId, event and test rest on a signature (schemes/types.ts SignedFacts). */
    signed: {
      type: new Schema({ deliveryId: { type: Boolean, required: true }, event: { type: Boolean, required: true }, test: { type: Boolean, required: true } }, { _id: false }),
      required: true,
    },
    receivedAt: { type: Date, required: true },
    /** Bumped by a replay; every run has its own rule and action outcomes. */
    run: { type: Number, default: 0 },
    processedRun: { type: Number, default: -1 },
    processedAt: { type: Date, default: null },
    /**
     * When it was last handed to a process job: at intake (= receivedAt), then whenever the sweep
     * enqueues it again, at most once per grace period so a backlog is not multiplied.
     */
    sweptAt: { type: Date, required: true, default(this: { receivedAt?: Date }) { return this.receivedAt; } },
  },
  { minimize: false, versionKey: false },
);
// Created through the model (tests, tools): `_id` follows `id`, as acceptDelivery writes it.
DeliverySchema.pre('validate', idFollowsPublicId);
// The de-duplication guarantee: a second arrival of the same delivery cannot be stored.
DeliverySchema.index({ source: 1, deliveryId: 1 }, { unique: true });
// The sweep's unprocessed deliveries due again: an index range of what waits, not of what is stored.
DeliverySchema.index({ processedAt: 1, sweptAt: 1 });
// The delivery list, filtered by source or event, pages by _id.
DeliverySchema.index({ source: 1, _id: 1 });
DeliverySchema.index({ event: 1, _id: 1 });

export type GatewayDelivery = InferSchemaType<typeof DeliverySchema>;
export const GatewayDeliveryModel = mongoose.model('GatewayDelivery', DeliverySchema, 'gatewayDeliveries');

/**
 * A delivery's request headers (without secrets, see intake.ts) and the exact bytes that were
 * verified, under the delivery's `_id`. Apart from it because the list never shows them and
 * FerretDB decodes whole documents for every read. Stored before the delivery in the same group
 * insert (state.ts), so a stored delivery always has its body.
 */
const DeliveryBodySchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Header name (lower case, storable: intake.ts) → value; repeated headers joined with ", ". */
    headers: { type: Schema.Types.Mixed, required: true },
    rawBody: { type: Buffer, required: true },
  },
  { minimize: false, versionKey: false },
);
export type GatewayDeliveryBody = InferSchemaType<typeof DeliveryBodySchema>;
export const GatewayDeliveryBodyModel = mongoose.model('GatewayDeliveryBody', DeliveryBodySchema, 'gatewayDeliveryBodies');

/**
 * The `relay` sources that have sent a valid X-Relay-Signature (`_id`: the source name). From then
 * on a delivery without it is refused: dropping the timed header must not turn a captured body
 * into a new delivery (issue 35, G1; docs/SECURITY.md). Kept for good; tiny, one per source.
 */
const TimedSourceSchema = new Schema({ _id: { type: String, required: true }, since: { type: Date, required: true } }, { versionKey: false });
export const TimedSourceModel = mongoose.model('GatewayTimedSource', TimedSourceSchema, 'gatewayTimedSources');

export const RULE_RESULTS = ['matched', 'skipped', 'error'] as const;

const RuleOutcomeSchema = new Schema(
  {
    /** ruleOutcomeId(delivery, run, rule) */
    _id: { type: String },
    delivery: { type: String, required: true },
    run: { type: Number, required: true },
    rule: { type: String, required: true },
    file: { type: String, required: true },
    result: { type: String, enum: RULE_RESULTS, required: true },
    /** Why the rule failed when `result` is 'error'; null otherwise. */
    error: { type: String, default: null },
    evaluatedAt: { type: Date, required: true },
  },
  { minimize: false, versionKey: false },
);
RuleOutcomeSchema.index({ delivery: 1, run: 1, rule: 1 }, { unique: true });
RuleOutcomeSchema.pre('validate', function () {
  if (this._id == null) this._id = ruleOutcomeId(this.delivery, this.run, this.rule);
});

/** A rule's record for one run of a delivery: the same key whenever that run is planned again. */
export function ruleOutcomeId(delivery: string, run: number, rule: string): string {
  return `${delivery}:${run}:${rule}`;
}

/** The id of one planned action: the same whenever the same run is planned again (a crash, a second runner). */
export function actionOutcomeId(delivery: string, run: number, rule: string, index: number): string {
  return nameUuid(`${delivery}:${run}:${rule}:${index}`);
}

export type RuleOutcome = InferSchemaType<typeof RuleOutcomeSchema>;
export const RuleOutcomeModel = mongoose.model('GatewayRuleOutcome', RuleOutcomeSchema, 'gatewayRuleOutcomes');

export const ACTION_STATUSES = ['pending', 'running', 'retrying', 'succeeded', 'failed'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

const ActionOutcomeSchema = new Schema(
  {
    /** The outcome's public id, actionOutcomeId(delivery, run, rule, index): planning twice finds the same record. */
    _id: { type: String, required: true },
    delivery: { type: String, required: true },
    run: { type: Number, required: true },
    rule: { type: String, required: true },
    index: { type: Number, required: true },
    type: { type: String, required: true },
    /** The action with every expression already evaluated; the job runs exactly this. */
    spec: { type: Schema.Types.Mixed, required: true },
    status: { type: String, enum: ACTION_STATUSES, required: true },
    attempts: { type: Number, default: 0 },
    /** A running attempt owns the outcome until then; after it, another worker may take over. Null when none runs. */
    leaseUntil: { type: Date, default: null },
    /** What the action reported (actions/report.ts); null until it has. */
    result: { type: Schema.Types.Mixed, default: null },
    /** The last attempt's error; null after a success or before any attempt. */
    error: { type: String, default: null },
    createdAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    /**
     * When it was last enqueued: at creation (= createdAt), then by the sweep (see the delivery's
     * sweptAt). Null on outcomes that were never pending: one run in place never waits for a job.
     */
    sweptAt: { type: Date, default(this: { status?: string; createdAt?: Date }) { return this.status === 'pending' ? this.createdAt : null; } },
  },
  { minimize: false, versionKey: false },
);
// One outcome per (delivery, run, rule, action index): a retried job can never add a second one.
ActionOutcomeSchema.index({ delivery: 1, run: 1, rule: 1, index: 1 }, { unique: true });
// The sweep's pending outcomes due again.
ActionOutcomeSchema.index({ status: 1, sweptAt: 1 });

export type ActionOutcome = InferSchemaType<typeof ActionOutcomeSchema>;
export const ActionOutcomeModel = mongoose.model('GatewayActionOutcome', ActionOutcomeSchema, 'gatewayActionOutcomes');

// FerretDB v1 applies conditional updates as read-modify-write (see docs/FERRETDB.md), so the
// only race-proof primitive is a unique key on insert. Both records below are claims made that way.

/** One document per attempt of an action outcome: `<outcome id>#<attempt>`; the insert that wins runs it. */
const ActionClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    outcome: { type: String, required: true },
    attempt: { type: Number, required: true },
    claimedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
export const ActionClaimModel = mongoose.model('GatewayActionClaim', ActionClaimSchema, 'gatewayActionClaims');

/** One document per re-sync attempt slot: `<target>|<hour>|<n>` for n = 1..cap. */
const ResyncAttemptSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** `<api base URL>|<channelId>|<dataSourceId>`: the cap is per data source. */
    target: { type: String, required: true },
    hour: { type: Date, required: true },
    takenAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// Retention's range of old slots (retention.ts).
ResyncAttemptSchema.index({ hour: 1 });

export const ResyncAttemptModel = mongoose.model('GatewayResyncAttempt', ResyncAttemptSchema, 'gatewayResyncAttempts');
