// `relay data-sources …` and `relay sync-hooks …`: data source names and sync-trigger hooks from
// the shell, with the same rules as the admin API. The hook URL (with its secret) is printed by
// create and regenerate-secret only.
import type { Command } from 'commander';
import { parseInput } from '../http/validate.ts';
import * as dataSources from '../datasources/service.ts';
import * as hooks from '../datasources/hooks.ts';
import { presentDataSourceAdmin, presentSyncHook } from '../datasources/presenters.ts';
import { BotDataSourceParams, BotHookParams, BotParams, DataSourceRenameSchema } from '../datasources/schema.ts';
import type { Runtime } from '../runtime.ts';
import { printJson, withRuntime } from './context.ts';

const issued = (rt: Runtime, { hook, secret }: hooks.IssuedHook) => ({ hook: presentSyncHook(hook), secret, url: hooks.hookUrl(rt.ctx.config, hook._id, secret) });

export function registerDatasourcesCommands(program: Command): void {
  const ds = program.command('data-sources').description("a bot's manual data sources (names shown in sync events)");
  ds.command('list')
    .description("list a bot's data sources with their names and last sync outcome")
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (o) => {
      const { botId } = parseInput(BotParams, { botId: o.bot });
      printJson(await withRuntime(async () => (await dataSources.listDataSources(botId, { limit: 100 })).items.map(presentDataSourceAdmin)));
    });
  ds.command('rename')
    .description('set the name sync events carry')
    .argument('<dataSourceId>')
    .requiredOption('--bot <botId>', 'bot id')
    .requiredOption('--name <name>', 'new name')
    .action(async (id, o) => {
      const { botId, dataSourceId } = parseInput(BotDataSourceParams, { botId: o.bot, dataSourceId: id });
      const { name } = parseInput(DataSourceRenameSchema, { name: o.name });
      printJson(await withRuntime(async () => presentDataSourceAdmin(await dataSources.renameDataSource(botId, dataSourceId, name))));
    });

  const sh = program.command('sync-hooks').description('incoming sync-trigger hooks (a secret URL that starts a sync)');
  sh.command('create')
    .description('create a hook for a data source (disabled); prints its URL once')
    .requiredOption('--bot <botId>', 'bot id')
    .requiredOption('--data-source <dataSourceId>', 'data source to sync')
    .action(async (o) => {
      const { botId, dataSourceId } = parseInput(BotDataSourceParams, { botId: o.bot, dataSourceId: o.dataSource });
      printJson(await withRuntime(async (rt) => issued(rt, await hooks.createSyncHook(rt.ctx, botId, dataSourceId))));
    });
  sh.command('list')
    .description("list a bot's sync hooks")
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (o) => {
      const { botId } = parseInput(BotParams, { botId: o.bot });
      printJson(await withRuntime(async () => (await hooks.listSyncHooks(botId)).map(presentSyncHook)));
    });
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    sh.command(name)
      .description(`${name} a hook`)
      .argument('<hookId>')
      .requiredOption('--bot <botId>', 'bot id')
      .action(async (id, o) => {
        const { botId, hookId } = parseInput(BotHookParams, { botId: o.bot, hookId: id });
        printJson(await withRuntime(async (rt) => presentSyncHook(await hooks.setSyncHookEnabled(rt.ctx, botId, hookId, enabled))));
      });
  }
  sh.command('regenerate-secret')
    .description('issue a new secret; the old URL stops working; prints the new URL once')
    .argument('<hookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => {
      const { botId, hookId } = parseInput(BotHookParams, { botId: o.bot, hookId: id });
      printJson(await withRuntime(async (rt) => issued(rt, await hooks.regenerateSyncHookSecret(rt.ctx, botId, hookId))));
    });
  sh.command('delete')
    .description('delete a hook; its URL stops working')
    .argument('<hookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => {
      const { botId, hookId } = parseInput(BotHookParams, { botId: o.bot, hookId: id });
      await withRuntime(() => hooks.deleteSyncHook(botId, hookId));
      printJson({ success: true });
    });
}
