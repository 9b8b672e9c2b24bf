// Manual data sources, their rows (metadata apart from the deflated content), the one-sync-at-a-time
// claim and the sync-trigger hooks. Ids are UUIDv7 stored as `_id` (see timeOrderedId in clock.ts for why).
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

export const SYNC_STATES = ['not_synced', 'syncing', 'synced', 'sync_error'] as const;
export type SyncState = (typeof SYNC_STATES)[number];
export const SYNC_INTERVALS = ['day', 'week', 'month'] as const;
export type SyncInterval = (typeof SYNC_INTERVALS)[number];

const ResultsSchema = new Schema(
  { totalTokens: Number, modifiedRows: Number, totalDocuments: Number, unmodifiedRows: Number, totalDataSourceRows: Number },
  { _id: false },
);

const DataSourceSchema = new Schema(
  {
    _id: { type: String, required: true },
    botId: { type: String, required: true },
    teamId: { type: String, required: true },
    /** Internal, human name carried by the sync event payloads; set through the admin API. */
    name: { type: String, required: true },
    type: { type: String, enum: ['MANUAL'], default: 'MANUAL' },
    state: { type: String, enum: SYNC_STATES, default: 'not_synced' },
    lastSync: { type: Date, default: null },
    syncInterval: { type: String, enum: [...SYNC_INTERVALS, null], default: null },
    createdAt: { type: Date, required: true },
    /** Number of the latest sync run started; the job carries it and stops when it moved on. */
    syncRun: { type: Number, default: 0 },
    syncStartedAt: { type: Date, default: null },
    /** Written by the running sync; a stale one means the worker died (see sweep.job.ts). */
    syncHeartbeatAt: { type: Date, default: null },
    /** Restarts of the current sync by the sweeper. */
    syncRetries: { type: Number, default: 0 },
    syncTrigger: { type: String, default: null },
    lastError: { type: String, default: null },
    lastResults: { type: ResultsSchema, default: null },
    /** Every row write of this source is in the change log (changes.ts); set when the source is created. */
    rowLog: { type: Boolean, required: true },
  },
  { versionKey: false },
);
// A bot's data sources, and its manual ones page by _id.
DataSourceSchema.index({ botId: 1, type: 1, _id: 1 });

const RowSchema = new Schema(
  {
    _id: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    name: { type: String, required: true },
    contentHash: { type: String, required: true },
    /** UTF-8 bytes of the content, for the storage-token estimate. */
    bytes: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    lastModified: { type: Date, required: true },
  },
  { versionKey: false },
);
// A data source's rows page by _id.
RowSchema.index({ dataSourceId: 1, _id: 1 });

const RowContentSchema = new Schema(
  {
    /** The row id. */
    _id: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    hash: { type: String, required: true },
    data: { type: Buffer, required: true },
  },
  { versionKey: false },
);
// A full sync reads a source's contents in pages by _id (sync.job.ts).
RowContentSchema.index({ dataSourceId: 1, _id: 1 });

/**
 * One document per syncing data source, claimed by insert. FerretDB v1 does not make conditional
 * updates atomic, but a unique `_id` insert has exactly one winner (docs/FERRETDB.md).
 */
const SyncClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    run: { type: Number, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

/**
 * One document per row-writing request (add, update, delete) with the rows it writes, inserted
 * before the write and removed by the sync that learned it: a sync looks at these rows only,
 * instead of reading every row of the source (see changes.ts). Insert-only, so concurrent writers
 * never lose an entry on FerretDB, and one document per request keeps the log short to read and clear.
 */
const RowChangeSchema = new Schema(
  {
    _id: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    rowIds: { type: [String], required: true },
    /** UTF-8 bytes each row holds after the write (0: deleted), for the storage-token estimate. */
    bytes: { type: [Number], required: true },
    /**
     * Content hash each row holds after the write ('' deleted), so a sync can tell a logged write
     * that had not landed when it read the row (changes.ts).
     */
    hashes: { type: [String], required: true },
  },
  { versionKey: false },
);
RowChangeSchema.index({ dataSourceId: 1, _id: 1 });

const SyncHookSchema = new Schema(
  {
    _id: { type: String, required: true },
    botId: { type: String, required: true },
    teamId: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    enabled: { type: Boolean, default: false },
    /** sha256 of the secret in the URL; the secret itself is shown once (create, regenerate). */
    secretHash: { type: String, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
SyncHookSchema.index({ botId: 1, createdAt: 1 });

export type DataSource = InferSchemaType<typeof DataSourceSchema> & { _id: string };
export type DataSourceRow = InferSchemaType<typeof RowSchema> & { _id: string };
export type RowContent = InferSchemaType<typeof RowContentSchema> & { _id: string };
export type SyncHook = InferSchemaType<typeof SyncHookSchema> & { _id: string };

export const DataSourceModel = mongoose.model('DataSource', DataSourceSchema, 'datasources');
export const DataSourceRowModel = mongoose.model('DataSourceRow', RowSchema, 'datasourcerows');
export const RowContentModel = mongoose.model('DataSourceRowContent', RowContentSchema, 'datasourcerowcontents');
export const SyncClaimModel = mongoose.model('DataSourceSyncClaim', SyncClaimSchema, 'datasourcesyncclaims');
export const RowChangeModel = mongoose.model('DataSourceRowChange', RowChangeSchema, 'datasourcerowchanges');
export const SyncHookModel = mongoose.model('DataSourceSyncHook', SyncHookSchema, 'datasourcesynchooks');
