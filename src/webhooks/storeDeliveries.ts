// Storing a fan-out batch's delivery rows so that a row the database refuses never fails the rows
// stored with it: the batch goes in one unordered insert; after a failure, the rows of ours that
// went in are read back by `_id`, and the rest are inserted again in halves until each row that
// still fails stands alone, to be replaced by its failed record (fanout.ts).
import { trusted } from '../db/connection.ts';
import { isTransientDatabaseError } from '../db/errors.ts';
import { insertNew } from '../db/insertNew.ts';
import { DeliveryModel } from './model.ts';

/** Keys per lookup: well inside SQLite's bound on a statement's parameters. */
const LOOKUP = 1_000;

export interface StoredDeliveries {
  /** Indexes of rows whose (eventId, webhookId) existed already: the event was fanned out before. */
  existed: Set<number>;
  /** Indexes of rows the database refused, each with its own error. */
  refused: Map<number, unknown>;
}

interface Row {
  doc: { _id: string };
  index: number;
}

/** Throws only when the database is away (then nothing says which rows are at fault). */
export async function storeDeliveries(docs: Array<{ _id: string }>): Promise<StoredDeliveries> {
  const stored: StoredDeliveries = { existed: new Set(), refused: new Map() };
  await insertRows(
    docs.map((doc, index) => ({ doc, index })),
    stored,
  );
  return stored;
}

async function insertRows(rows: Row[], stored: StoredDeliveries): Promise<void> {
  if (!rows.length) return;
  try {
    for (const n of await insertNew(DeliveryModel.collection, rows.map((r) => r.doc))) stored.existed.add(rows[n]!.index);
    return;
  } catch (err) {
    if (isTransientDatabaseError(err)) throw err;
    if (rows.length === 1) {
      stored.refused.set(rows[0]!.index, err);
      return;
    }
    // An unordered insert stores every row it can (none, when the driver refused the command
    // before sending it): ours are fresh ids, so those found went in with this insert.
    const inserted = await storedIds(rows.map((r) => r.doc._id));
    const rest = rows.filter((r) => !inserted.has(r.doc._id));
    const half = Math.ceil(rest.length / 2);
    await insertRows(rest.slice(0, half), stored);
    await insertRows(rest.slice(half), stored);
  }
}

async function storedIds(ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += LOOKUP) {
    const rows = await DeliveryModel.find({ _id: trusted({ $in: ids.slice(i, i + LOOKUP) }) }, { _id: 1 }).lean<Array<{ _id: string }>>();
    for (const row of rows) found.add(row._id);
  }
  return found;
}
