// The instances of the service that share this database, each with its last heartbeat and what it
// reports (the gateway configuration it runs), and settings every instance follows.
import mongoose, { Schema } from 'mongoose';

const InstanceSchema = new Schema(
  {
    /** host-pid-random, made at start (jobs/fleet.ts). */
    _id: { type: String, required: true },
    role: { type: String, required: true },
    host: { type: String, required: true },
    pid: { type: Number, required: true },
    startedAt: { type: Date, required: true },
    heartbeatAt: { type: Date, required: true },
    /** What each domain reports about this instance, by domain name. */
    reports: { type: Schema.Types.Mixed, default: {} },
  },
  { versionKey: false, minimize: false },
);
InstanceSchema.index({ heartbeatAt: 1 });

export const InstanceModel = mongoose.model('Instance', InstanceSchema, 'instances');

/** One document per shared setting (`_id` its name): a counter every instance follows. */
const FleetSettingSchema = new Schema(
  {
    _id: { type: String, required: true },
    generation: { type: Number, required: true },
    changedAt: { type: Date, required: true },
    changedBy: { type: String, default: null },
  },
  { versionKey: false },
);

export const FleetSettingModel = mongoose.model('FleetSetting', FleetSettingSchema, 'fleetsettings');
