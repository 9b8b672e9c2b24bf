// Stored answers of requests sent with an Idempotency-Key (http/idempotency.ts), one per channel and
// key. Kept in the database so a retry that lands on another instance finds the first answer.
import mongoose, { Schema } from 'mongoose';

const IdempotencyKeySchema = new Schema(
  {
    /** `<channelId>:<sha256 of the key>`: one claim per channel and key, by the unique `_id`. */
    _id: { type: String, required: true },
    /** sha256 of the route, API version and request body: the same key with another request is refused. */
    fingerprint: { type: String, required: true },
    state: { type: String, enum: ['running', 'done'], required: true },
    /** While running: until when the instance that runs it holds it (renewed while it runs). */
    leaseUntil: { type: Date, required: true },
    /** The first answer as JSON text (a string, so no key of a user's data is read as an operator). */
    answer: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// Retention deletes keys by age (a key answers for 24 h; chat/index.ts prunes older ones).
IdempotencyKeySchema.index({ createdAt: 1 });

export const IdempotencyKeyModel = mongoose.model('IdempotencyKey', IdempotencyKeySchema, 'idempotencykeys');
