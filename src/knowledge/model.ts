// Stored knowledge of a data source. A sync writes immutable packs (deflated groups of chunks) and a
// manifest naming, per row, the content hash it learned and the pack holding its chunks (a header and
// buckets of rows, manifest.ts); switching the segment document to the new manifest is the single
// write that makes a sync visible.
// Every key is `_id`: FerretDB v1 serves only `_id` equality without a scan (docs/FERRETDB.md).
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

const SegmentSchema = new Schema(
  {
    /** The data source id. */
    _id: { type: String, required: true },
    botId: { type: String, required: true },
    /** The sync run whose manifest is live. */
    run: { type: Number, required: true },
    manifestId: { type: String, required: true },
    totalDocuments: { type: Number, required: true },
    /** The live manifest's `tracked` (store.ts), so a sync start learns it without reading the manifest. */
    tracked: { type: Boolean, required: true },
    /** The live manifest's bucket count (manifest.ts), so a row's get reads its bucket at once. */
    buckets: { type: Number, required: true },
  },
  { versionKey: false },
);

const BlobSchema = new Schema(
  {
    _id: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    run: { type: Number, required: true },
    /** Deflated JSON (see store.ts and manifest.ts for the shapes). */
    data: { type: Buffer, required: true },
    /** Packs only: the chunks' vectors in group order, a 12-bit integer per dimension, two to three bytes (knowledge/vectorCodec.ts). */
    vectors12: { type: Buffer, required: false },
    /** Packs only: one little-endian Float32 scale per vector of vectors12. */
    vectorScales: { type: Buffer, required: false },
  },
  { versionKey: false },
);

export type KnowledgeSegment = InferSchemaType<typeof SegmentSchema>;
export const KnowledgeSegmentModel = mongoose.model('KnowledgeSegment', SegmentSchema, 'knowledgesegments');
export const KnowledgeManifestModel = mongoose.model('KnowledgeManifest', BlobSchema, 'knowledgemanifests');
export const KnowledgePackModel = mongoose.model('KnowledgePack', BlobSchema, 'knowledgepacks');
