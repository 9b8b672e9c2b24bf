// Manual data sources of a bot: create (within the plan's limit), list, read, the sync interval,
// the internal name, and deletion of everything a source owns. Every lookup is scoped by bot.
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import type { PageQuery } from '../http/pagination.ts';
import { effectiveLimits } from '../platform/presenters.ts';
import type { Bot, Team } from '../platform/model.ts';
import { serialized } from './serial.ts';
import { removeKnowledge } from '../knowledge/store.ts';
import { forgetSegment } from '../knowledge/service.ts';
import { timeOrderedId } from '../clock.ts';
import { cancelIntervalSync, scheduleIntervalSync } from './interval.ts';
import { DataSourceModel, DataSourceRowModel, RowChangeModel, RowContentModel, SyncClaimModel, SyncHookModel, type DataSource, type SyncInterval } from './model.ts';
import { pageById } from '../http/pagination.ts';
import { SYNC_JOB } from './jobNames.ts';
import { findOwned } from '../db/byId.ts';

export async function createDataSource(ctx: AppContext, bot: Pick<Bot, 'id' | 'teamId'>, team: Pick<Team, 'plan' | 'limits'>): Promise<DataSource> {
  const limit = effectiveLimits(team, ctx.planLimits).dataSourcesPerBot;
  // Count-then-insert is serialised per bot so two concurrent creates cannot both pass the limit.
  return serialized(`datasources-create:${bot.id}`, async () => {
    const count = await DataSourceModel.countDocuments({ botId: bot.id });
    if (count >= limit) throw new AppError('data_source_limit_reached', `The plan allows ${limit} data sources per bot`);
    const doc = await DataSourceModel.create({
      _id: timeOrderedId(),
      botId: bot.id,
      teamId: bot.teamId,
      name: `Data source ${count + 1}`,
      createdAt: ctx.clock.now(),
      rowLog: true,
    });
    return doc.toObject() as DataSource;
  });
}

export function listDataSources(botId: string, page: PageQuery) {
  return pageById<DataSource>(DataSourceModel, { botId, type: 'MANUAL' }, page);
}

/** 404 when missing, not manual or another bot's (spec "Data sources" rule 4). */
export async function getDataSource(botId: string, dataSourceId: string): Promise<DataSource> {
  const ds = await findOwned<DataSource>(DataSourceModel, dataSourceId, { botId });
  if (!ds || ds.type !== 'MANUAL') throw new AppError('data_source_not_found', 'Data source not found');
  return ds;
}

/** Sets the interval and answers the data source as it was before the change (spec: PUT). */
export async function setSyncInterval(ctx: AppContext, botId: string, dataSourceId: string, interval: SyncInterval | null): Promise<DataSource> {
  const before = await getDataSource(botId, dataSourceId);
  await DataSourceModel.updateOne({ _id: dataSourceId }, { $set: { syncInterval: interval } });
  await scheduleIntervalSync(ctx.jobs, dataSourceId, interval, ctx.clock.now());
  return before;
}

export async function renameDataSource(botId: string, dataSourceId: string, name: string): Promise<DataSource> {
  await getDataSource(botId, dataSourceId);
  const ds = await DataSourceModel.findOneAndUpdate({ _id: dataSourceId, botId }, { $set: { name } }, { returnDocument: 'after' }).lean<DataSource>();
  if (!ds) throw new AppError('data_source_not_found', 'Data source not found');
  return ds;
}

/**
 * Deletes the source and everything in it (spec rule 1). The source document goes first, then its
 * knowledge segment, so the bot stops using it at once; a sync still running sees the source gone
 * at its next heartbeat and stops.
 */
export async function deleteDataSource(ctx: AppContext, botId: string, dataSourceId: string): Promise<void> {
  await getDataSource(botId, dataSourceId);
  await DataSourceModel.deleteOne({ _id: dataSourceId });
  await removeKnowledge(dataSourceId);
  forgetSegment(dataSourceId);
  await cancelIntervalSync(ctx.jobs, dataSourceId);
  await ctx.jobs.cancel({ name: SYNC_JOB, data: { dataSourceId } });
  await Promise.all([
    DataSourceRowModel.deleteMany({ dataSourceId }),
    RowContentModel.deleteMany({ dataSourceId }),
    SyncHookModel.deleteMany({ dataSourceId }),
    RowChangeModel.deleteMany({ dataSourceId }),
    SyncClaimModel.deleteOne({ _id: dataSourceId }),
  ]);
}

/** Row names by row id, for replies that say where they quote from; each row read by `_id` in its data source. */
export async function rowNames(rows: Array<{ rowId: string; dataSourceId: string }>): Promise<Map<string, string>> {
  const unique = [...new Map(rows.map((r) => [r.rowId, r])).values()];
  const found = await Promise.all(unique.map((r) => findOwned<{ _id: string; name: string }>(DataSourceRowModel, r.rowId, { dataSourceId: r.dataSourceId })));
  return new Map(found.flatMap((row) => (row ? [[row._id, row.name] as [string, string]] : [])));
}
