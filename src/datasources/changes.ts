// Which rows a sync must look at. Every row write logs the row id first (RowChangeModel); a sync
// reads the log of its source and then only those rows, by `_id`, so a re-sync costs what changed,
// not the size of the source (FerretDB v1 scans a collection for anything but an `_id` lookup).
// A log that may lack changes since the learned manifest (PendingChanges.complete), or one longer
// than a share of the source, falls back to reading every row.
import type { Manifest } from '../knowledge/store.ts';
import { trusted } from '../db/connection.ts';
import { timeOrderedId } from '../clock.ts';
import { RowChangeModel } from './model.ts';

/** Above this share of the learned rows, one scan beats one `_id` read per changed row. */
const SCAN_ABOVE_SHARE = 0.2;
/**
 * An entry whose write never landed (the request failed after logging and restored the row) is
 * cleared after this: its row is read again by each sync until then, which costs one `_id` read.
 */
const UNLANDED_AFTER_MS = 10 * 60_000;

export interface PendingChanges<E extends SizeEntry = LogEntry> {
  /** The log entries read; those the committed sync learned are then removed (settledEntries). */
  entries: E[];
  /**
   * The log holds every change since the learned manifest: the manifest was committed by a sync
   * that followed the log, or nothing was ever learned and the source was born with the log.
   */
  complete: boolean;
  /** Each logged row with the bytes it holds after its latest logged write (0: deleted). */
  rows: Map<string, number>;
}

/**
 * Logs a write to these rows of a data source (bytes and content hash after the write: 0 and ''
 * for a delete); call before writing, so a crash between the two still has the row looked at.
 */
export async function logRowChanges(dataSourceId: string, rows: Array<{ id: string; bytes: number; hash: string }>, now: Date): Promise<void> {
  if (!rows.length) return;
  const entry = { _id: timeOrderedId(now.getTime()), dataSourceId, rowIds: rows.map((r) => r.id), bytes: rows.map((r) => r.bytes), hashes: rows.map((r) => r.hash) };
  await RowChangeModel.collection.insertOne(entry as never);
}

/** A log entry as stored: its rows, and the bytes and content hash each holds after the write. */
type LogEntry = { _id: string; rowIds: string[]; bytes: number[]; hashes: string[] };
type SizeEntry = Omit<LogEntry, 'hashes'>;

/** The source's log, oldest first; `sizesOnly` leaves out the hashes (a third of an entry), which only a sync's commit reads. */
export function readChangeLog(dataSourceId: string, opts: { sizesOnly: true }): Promise<SizeEntry[]>;
export function readChangeLog(dataSourceId: string): Promise<LogEntry[]>;
export function readChangeLog(dataSourceId: string, opts: { sizesOnly?: boolean } = {}): Promise<SizeEntry[]> {
  const fields = opts.sizesOnly ? { rowIds: 1, bytes: 1 } : { rowIds: 1, bytes: 1, hashes: 1 };
  return RowChangeModel.find({ dataSourceId }, fields).sort({ _id: 1 }).lean<SizeEntry[]>();
}

export async function pendingChanges(ds: { _id: string; rowLog: boolean }, learned: Pick<Manifest, 'run' | 'tracked'>): Promise<PendingChanges> {
  return changesIn(ds, learned, await readChangeLog(ds._id));
}

/** The changes `entries` (the source's change log, oldest first) record since `learned`. */
export function changesIn<E extends SizeEntry>(ds: { rowLog: boolean }, learned: Pick<Manifest, 'run' | 'tracked'>, entries: E[]): PendingChanges<E> {
  const rows = new Map<string, number>();
  for (const e of entries) e.rowIds.forEach((id, i) => rows.set(id, e.bytes[i]!));
  const complete = learned.tracked === true || (learned.run === 0 && ds.rowLog === true);
  return { entries, complete, rows };
}

/** The rows to read one by one, or null when one scan of the source is cheaper or the log incomplete. */
export function rowsToRead(changes: PendingChanges<SizeEntry>, learned: Manifest): string[] | null {
  const learnedRows = Object.keys(learned.rows).length;
  if (!changes.complete || changes.rows.size > Math.max(50, learnedRows * SCAN_ABOVE_SHARE)) return null;
  return [...changes.rows.keys()];
}

/** The UUIDv7 id's milliseconds (clock.ts). */
const loggedAt = (entryId: string) => parseInt(entryId.slice(0, 8) + entryId.slice(9, 13), 16);

/**
 * The entries a committed sync is done with: each of their rows learned at the hash its latest
 * entry logged (deleted: not learned). A write is logged before it lands, so a sync can read the
 * log, then the row before the write lands, and learn the old content; clearing that entry would
 * leave the row stale until its next write. Such an entry stays, and the next sync reads the row
 * again.
 */
export function settledEntries(changes: PendingChanges, learnedHash: (rowId: string) => string | undefined, nowMs: number): string[] {
  const latest = new Map<string, string>();
  for (const e of changes.entries) e.rowIds.forEach((id, i) => latest.set(id, e.hashes[i]!));
  const settled = (id: string) => latest.get(id) === (learnedHash(id) ?? '');
  return changes.entries.filter((e) => nowMs - loggedAt(e._id) > UNLANDED_AFTER_MS || e.rowIds.every(settled)).map((e) => e._id);
}

/** After a commit: removes the entries it is done with (settledEntries); the rest stay for the next sync. */
export async function consumeChanges(entryIds: string[]): Promise<void> {
  for (let i = 0; i < entryIds.length; i += 500) await RowChangeModel.deleteMany({ _id: trusted({ $in: entryIds.slice(i, i + 500) }) });
}
