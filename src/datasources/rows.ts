// Rows of a manual data source (spec "Data source row"): add, list, read, update, delete. Changes
// reach the bot only after a sync; a row's sync state is derived from the live knowledge manifest.
// Writes validate everything first and undo their own partial work on a storage failure, so a
// request that fails with row_save_failed leaves nothing half-written.
import { AppError } from '../http/errors.ts';
import type { PageQuery } from '../http/pagination.ts';
import { readCommittedRow, type ManifestRow } from '../knowledge/manifest.ts';
import { contentHash, packContent, unpackContent } from './content.ts';
import { timeOrderedId } from '../clock.ts';
import { DataSourceRowModel, RowContentModel, type DataSource, type DataSourceRow, type RowContent, type SyncState } from './model.ts';
import { pageById } from '../http/pagination.ts';
import type { RowView } from './presenters.ts';
import { bulkWriteInBatches, trusted } from '../db/connection.ts';
import { isTransientDatabaseError } from '../db/errors.ts';
import { findOwned } from '../db/byId.ts';
import { logRowChanges } from './changes.ts';
import { getDataSource } from './service.ts';

export interface RowOptions {
  now: Date;
  newRowId?: () => string;
}

/** Runs `fn` over items with at most `limit` in flight: `_id` lookups are cheap, scans are not. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * The cause is logged by the caller's error path, never sent: the client only learns to retry. A
 * database that is away or overloaded stays that error, so the edge answers 503 like any outage.
 */
const saveFailed = (cause: unknown) =>
  isTransientDatabaseError(cause) ? cause : Object.assign(new AppError('row_save_failed', 'Saving the rows failed; nothing was changed. Retry.'), { cause });

export async function addRows(ds: DataSource, rows: Array<{ name: string; content: string }>, opts: RowOptions): Promise<number> {
  const newId = opts.newRowId ?? (() => timeOrderedId(opts.now.getTime()));
  const metas: DataSourceRow[] = [];
  const contents: Array<{ _id: string; dataSourceId: string; hash: string; data: Buffer }> = [];
  for (const row of rows) {
    const id = newId();
    const hash = contentHash(row.content);
    const bytes = Buffer.byteLength(row.content, 'utf8');
    metas.push({ _id: id, dataSourceId: ds._id, name: row.name, contentHash: hash, bytes, createdAt: opts.now, lastModified: opts.now });
    contents.push({ _id: id, dataSourceId: ds._id, hash, data: packContent(row.content) });
  }
  try {
    await logRowChanges(ds._id, metas.map((m) => ({ id: m._id, bytes: m.bytes, hash: m.contentHash })), opts.now);
    await DataSourceRowModel.collection.insertMany(metas as never[], { ordered: true });
    await RowContentModel.collection.insertMany(contents as never[], { ordered: true });
  } catch (err) {
    // An ordered insert stops at the first failure; remove whatever of this batch got in.
    const ids = metas.map((m) => m._id);
    await DataSourceRowModel.deleteMany({ _id: trusted({ $in: ids }), dataSourceId: ds._id }).catch(() => undefined);
    await RowContentModel.deleteMany({ _id: trusted({ $in: ids }), dataSourceId: ds._id }).catch(() => undefined);
    throw saveFailed(err);
  }
  return metas.length;
}

export function listRows(ds: Pick<DataSource, '_id'>, page: PageQuery) {
  return pageById<DataSourceRow>(DataSourceRowModel, { dataSourceId: ds._id }, page, { projection: { _id: 1, name: 1 } });
}

/**
 * The outcome of the source's read first, then of the reads made beside it: a source that is not
 * this bot's answers 404 whatever the others found, and what they read is never shown.
 */
async function besideSource<T>(source: Promise<DataSource>, reads: Promise<T>): Promise<[DataSource, T]> {
  const [ds, rest] = await Promise.allSettled([source, reads]);
  if (ds.status === 'rejected') throw ds.reason;
  if (rest.status === 'rejected') throw rest.reason;
  return [ds.value, rest.value];
}

/** A page of a bot's source's rows: the page and its count are read beside the source, one wait where there were two. */
export async function listRowsOf(botId: string, dataSourceId: string, page: PageQuery) {
  return (await besideSource(getDataSource(botId, dataSourceId), listRows({ _id: dataSourceId }, page)))[1];
}

/** A row's own state: synced when the live knowledge holds its current content (docs/DATA_SOURCES.md). */
export function rowState(ds: Pick<DataSource, 'state'>, row: Pick<DataSourceRow, 'contentHash'>, learned: ManifestRow | undefined): { state: SyncState; lastSync: Date | null } {
  const lastSync = learned ? new Date(learned.t) : null;
  if (learned && learned.h === row.contentHash) return { state: 'synced', lastSync };
  if (ds.state === 'syncing' || ds.state === 'sync_error') return { state: ds.state, lastSync };
  return { state: 'not_synced', lastSync };
}

const readRow = (dataSourceId: string, rowId: string) =>
  Promise.all([
    findOwned<DataSourceRow>(DataSourceRowModel, rowId, { dataSourceId }),
    findOwned<RowContent>(RowContentModel, rowId, { dataSourceId }),
    readCommittedRow(dataSourceId, rowId),
  ]);

function rowView(ds: DataSource, [row, content, learned]: Awaited<ReturnType<typeof readRow>>): RowView {
  if (!row || !content) throw new AppError('data_source_row_not_found', 'Data source row not found');
  return { row, content: unpackContent(content.data), ...rowState(ds, row, learned) };
}

export async function getRow(ds: DataSource, rowId: string): Promise<RowView> {
  return rowView(ds, await readRow(ds._id, rowId));
}

/** A row of a bot's source, read beside the source: one wait where there were two. */
export async function getRowOf(botId: string, dataSourceId: string, rowId: string): Promise<RowView> {
  return rowView(...(await besideSource(getDataSource(botId, dataSourceId), readRow(dataSourceId, rowId))));
}

/**
 * Replaces name and content. Every id is checked before anything is written: one id that is not
 * a row of this data source fails the whole request with 404 and changes nothing (the spec allows
 * earlier rows to be updated; not doing so is the stricter choice).
 */
export async function updateRows(ds: DataSource, rows: Array<{ id: string; name: string; content: string }>, opts: RowOptions): Promise<void> {
  const latest = new Map(rows.map((r) => [r.id, r]));
  const ids = [...latest.keys()];
  const existing = await mapLimit(ids, 16, (id) => findOwned<DataSourceRow>(DataSourceRowModel, id, { dataSourceId: ds._id }));
  const missing = ids.filter((_, i) => !existing[i]);
  if (missing.length) throw new AppError('data_source_row_not_found', 'Some rows do not belong to this data source', { dataSourceRowIds: missing.slice(0, 20) });

  const changed = existing.filter((row) => contentHash(latest.get(row!._id)!.content) !== row!.contentHash) as DataSourceRow[];
  const oldContents = await mapLimit(changed, 16, (row) => RowContentModel.findById(row._id).lean());
  const metaOps = existing.map((row) => {
    const input = latest.get(row!._id)!;
    const hash = contentHash(input.content);
    return {
      updateOne: {
        filter: { _id: row!._id },
        update: { $set: { name: input.name, contentHash: hash, bytes: Buffer.byteLength(input.content, 'utf8'), lastModified: opts.now } },
      },
    };
  });
  const contentOps = changed.map((row) => {
    const input = latest.get(row._id)!;
    return { replaceOne: { filter: { _id: row._id }, replacement: { dataSourceId: ds._id, hash: contentHash(input.content), data: packContent(input.content) } } };
  });
  try {
    await logRowChanges(
      ds._id,
      changed.map((row) => {
        const { content } = latest.get(row._id)!;
        return { id: row._id, bytes: Buffer.byteLength(content, 'utf8'), hash: contentHash(content) };
      }),
      opts.now,
    );
    await bulkWriteInBatches(RowContentModel.collection, contentOps);
    await bulkWriteInBatches(DataSourceRowModel.collection, metaOps);
  } catch (err) {
    const restoreMeta = existing.map((row) => ({ replaceOne: { filter: { _id: row!._id }, replacement: row } }));
    const restoreContent = oldContents.filter(Boolean).map((c) => ({ replaceOne: { filter: { _id: c!._id }, replacement: c } }));
    await bulkWriteInBatches(DataSourceRowModel.collection, restoreMeta).catch(() => undefined);
    await bulkWriteInBatches(RowContentModel.collection, restoreContent).catch(() => undefined);
    throw saveFailed(err);
  }
}

/** Deletes rows of this data source; ids that do not exist here are skipped (spec rule 3). */
export async function deleteRows(ds: DataSource, ids: string[], now: Date): Promise<number> {
  const unique = [...new Set(ids)];
  const owned = await mapLimit(unique, 16, (id) => findOwned(DataSourceRowModel, id, { dataSourceId: ds._id }));
  const mine = unique.filter((_, i) => owned[i]);
  await logRowChanges(ds._id, mine.map((id) => ({ id, bytes: 0, hash: '' })), now);
  const deleted = await mapLimit(mine, 16, async (id) => {
    const res = await DataSourceRowModel.deleteOne({ _id: id });
    if (res.deletedCount) await RowContentModel.deleteOne({ _id: id });
    return res.deletedCount;
  });
  return deleted.reduce((a, b) => a + b, 0);
}
