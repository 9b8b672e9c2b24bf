// Admin API of the datasources domain: data source names (carried by sync events) and the
// sync-trigger hooks. The hook URL with its secret is in the response of create and regenerate only.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { parseInput, validate } from '../http/validate.ts';
import { PageQuerySchema } from '../http/pagination.ts';
import * as dataSources from './service.ts';
import * as hooks from './hooks.ts';
import { presentDataSourceAdmin, presentSyncHook } from './presenters.ts';
import { BotDataSourceParams, BotHookParams, BotParams, DataSourceRenameSchema, HookEnabledSchema } from './schema.ts';

const HOOK = '/bots/:botId/sync-hooks/:hookId';

export function dataSourceAdminRoutes(router: Router, ctx: AppContext): void {
  const issued = (c: { origin: string }, { hook, secret }: hooks.IssuedHook) => ({
    success: true,
    hook: presentSyncHook(hook),
    secret,
    url: hooks.hookUrl(ctx.config, hook._id, secret, c.origin),
  });

  router.get('/bots/:botId/data-sources', validate(PageQuerySchema, 'query'), async (c) => {
    const { botId } = parseInput(BotParams, c.params);
    const page = await dataSources.listDataSources(botId, c.state.input);
    c.body = { success: true, dataSources: page.items.map(presentDataSourceAdmin), pagination: page.pagination };
  });
  router.get('/bots/:botId/data-sources/:dataSourceId', async (c) => {
    const { botId, dataSourceId } = parseInput(BotDataSourceParams, c.params);
    c.body = { success: true, dataSource: presentDataSourceAdmin(await dataSources.getDataSource(botId, dataSourceId)) };
  });
  router.patch('/bots/:botId/data-sources/:dataSourceId', validate(DataSourceRenameSchema), async (c) => {
    const { botId, dataSourceId } = parseInput(BotDataSourceParams, c.params);
    c.body = { success: true, dataSource: presentDataSourceAdmin(await dataSources.renameDataSource(botId, dataSourceId, c.state.input.name)) };
  });

  router.post('/bots/:botId/data-sources/:dataSourceId/sync-hooks', async (c) => {
    const { botId, dataSourceId } = parseInput(BotDataSourceParams, c.params);
    c.status = 201;
    c.body = issued(c, await hooks.createSyncHook(ctx, botId, dataSourceId));
  });
  router.get('/bots/:botId/sync-hooks', async (c) => {
    const { botId } = parseInput(BotParams, c.params);
    c.body = { success: true, hooks: (await hooks.listSyncHooks(botId)).map(presentSyncHook) };
  });
  router.get(HOOK, async (c) => {
    const { botId, hookId } = parseInput(BotHookParams, c.params);
    c.body = { success: true, hook: presentSyncHook(await hooks.getSyncHook(botId, hookId)) };
  });
  router.put(`${HOOK}/enabled`, validate(HookEnabledSchema), async (c) => {
    const { botId, hookId } = parseInput(BotHookParams, c.params);
    c.body = { success: true, hook: presentSyncHook(await hooks.setSyncHookEnabled(ctx, botId, hookId, c.state.input.enabled)) };
  });
  router.post(`${HOOK}/secret`, async (c) => {
    const { botId, hookId } = parseInput(BotHookParams, c.params);
    c.body = issued(c, await hooks.regenerateSyncHookSecret(ctx, botId, hookId));
  });
  router.delete(HOOK, async (c) => {
    const { botId, hookId } = parseInput(BotHookParams, c.params);
    await hooks.deleteSyncHook(botId, hookId);
    c.body = { success: true };
  });
}
