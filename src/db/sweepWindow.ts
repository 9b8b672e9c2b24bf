// Where a periodic sweep over rows in creation order left off, so each run reads only the rows
// created since the last one instead of every row ever written (on FerretDB v1 any such query
// scans, so what it returns is what costs). Rows are visited in (createdAt, _id) order and the mark
// is a position in that order: a batch that ends inside one millisecond resumes after its last
// row, so a burst of more rows than a batch in one millisecond cannot stall the sweep.
import mongoose, { Schema, type Model, type QueryFilter } from 'mongoose';
import { trusted } from './connection.ts';

const SweepMarkSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    /** Null: rows from `at` on; set: rows after (at, afterId). */
    afterId: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false, minimize: false },
);
export const SweepMarkModel = mongoose.model('SweepMark', SweepMarkSchema, 'sweepmarks');

export interface SweepRow {
  _id: unknown;
  createdAt: Date;
}

export interface SweepWindow<R> {
  /** Up to `batch` rows matching the filter, created after the mark and before the cutoff, oldest first. */
  rows: R[];
  /**
   * Moves the mark past the rows handled. `firstUnhandled` (an index into `rows`) keeps that row
   * and everything after it for the next run; otherwise a short batch means everything before the
   * cutoff was seen. A mark already at or past the cutoff stays where it is.
   */
  advance(firstUnhandled?: number): Promise<void>;
}

export async function sweepWindow<R extends SweepRow>(
  model: Model<R>,
  mark: string,
  filter: QueryFilter<R>,
  cutoff: Date,
  batch: number,
  projection?: Record<string, 0 | 1>,
): Promise<SweepWindow<R>> {
  const position = await SweepMarkModel.findById(mark).lean<{ at: Date; afterId: unknown }>();
  const at = position?.at ?? new Date(0);
  if (at >= cutoff) return { rows: [], advance: async () => undefined };
  const after =
    position?.afterId == null
      ? { createdAt: trusted({ $gte: at, $lt: cutoff }) }
      : { $or: [{ createdAt: trusted({ $gt: at, $lt: cutoff }) }, { createdAt: at, _id: trusted({ $gt: position.afterId }) }] };
  const rows = await model
    .find({ ...filter, ...after } as QueryFilter<R>, projection)
    .sort({ createdAt: 1, _id: 1 })
    .limit(batch)
    .lean<R[]>();
  return {
    rows,
    async advance(firstUnhandled) {
      let next: { at: Date; afterId: unknown } | null;
      if (firstUnhandled !== undefined) {
        const last = rows[firstUnhandled - 1];
        next = last ? { at: last.createdAt, afterId: last._id } : null;
      } else if (rows.length < batch) {
        next = { at: cutoff, afterId: null };
      } else {
        const last = rows.at(-1)!;
        next = { at: last.createdAt, afterId: last._id };
      }
      if (next) await SweepMarkModel.updateOne({ _id: mark }, { $set: next }, { upsert: true });
    },
  };
}
