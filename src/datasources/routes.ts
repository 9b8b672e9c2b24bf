// Public data-sources API (spec "Endpoints › Data sources"), the same on 1.0 and 2.0. Auth and
// the channel's bot come from the public edge; every data source is looked up within that bot.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { validate } from '../http/validate.ts';
import type { PublicState } from '../platform/publicAuth.ts';
import { presentDataSource, presentRow, presentRowListItem } from './presenters.ts';
import * as dataSources from './service.ts';
import * as rows from './rows.ts';
import { startSync } from './sync.ts';
import {
  DataSourceIdSchema,
  DataSourceListSchema,
  RowGetSchema,
  RowsAddSchema,
  RowsDeleteSchema,
  RowsListSchema,
  RowsUpdateSchema,
  SyncIntervalUpdateSchema,
} from './schema.ts';

export interface DataSourceRouteOptions {
  /** Row id generator (tests force a storage failure with a colliding id). */
  newRowId?: () => string;
}

export function dataSourceRoutes(router: Router<PublicState>, ctx: AppContext, opts: DataSourceRouteOptions = {}): void {
  const source = (c: { state: PublicState }) => dataSources.getDataSource(c.state.botId, c.state.input.dataSourceId);

  router.post('/data-sources', async (c) => {
    const { bot, team } = await c.state.tenant();
    c.body = { success: true, dataSource: presentDataSource(await dataSources.createDataSource(ctx, bot, team)) };
  });
  router.post('/data-sources/list', validate(DataSourceListSchema), async (c) => {
    const page = await dataSources.listDataSources(c.state.botId, c.state.input);
    c.body = { success: true, dataSources: page.items.map(presentDataSource), pagination: page.pagination };
  });
  router.get('/data-sources', validate(DataSourceIdSchema, 'query'), async (c) => {
    c.body = { success: true, dataSource: presentDataSource(await source(c)) };
  });
  router.put('/data-sources', validate(SyncIntervalUpdateSchema), async (c) => {
    const { dataSourceId, syncInterval } = c.state.input;
    c.body = { success: true, dataSource: presentDataSource(await dataSources.setSyncInterval(ctx, c.state.botId, dataSourceId, syncInterval)) };
  });
  router.delete('/data-sources', validate(DataSourceIdSchema), async (c) => {
    await dataSources.deleteDataSource(ctx, c.state.botId, c.state.input.dataSourceId);
    c.body = { success: true };
  });
  router.post('/data-sources/sync', validate(DataSourceIdSchema), async (c) => {
    await startSync(ctx, { botId: c.state.botId, dataSourceId: c.state.input.dataSourceId, trigger: 'api' });
    c.body = { success: true };
  });

  router.post('/data-sources/row', validate(RowsAddSchema), async (c) => {
    await rows.addRows(await source(c), c.state.input.dataSourceRows, { now: ctx.clock.now(), newRowId: opts.newRowId });
    c.body = { success: true };
  });
  router.post('/data-sources/row/list', validate(RowsListSchema), async (c) => {
    const page = await rows.listRowsOf(c.state.botId, c.state.input.dataSourceId, c.state.input);
    c.body = { success: true, dataSourceRows: page.items.map(presentRowListItem), pagination: page.pagination };
  });
  router.get('/data-sources/row', validate(RowGetSchema, 'query'), async (c) => {
    const { dataSourceId, dataSourceRowId } = c.state.input;
    c.body = { success: true, dataSourceRow: presentRow(await rows.getRowOf(c.state.botId, dataSourceId, dataSourceRowId)) };
  });
  router.put('/data-sources/row', validate(RowsUpdateSchema), async (c) => {
    await rows.updateRows(await source(c), c.state.input.dataSourceRows, { now: ctx.clock.now() });
    c.body = { success: true };
  });
  router.delete('/data-sources/row', validate(RowsDeleteSchema), async (c) => {
    await rows.deleteRows(await source(c), c.state.input.dataSourceRows.map((r: { id: string }) => r.id), ctx.clock.now());
    c.body = { success: true };
  });
}
