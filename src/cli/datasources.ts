// `relay data-sources …` and `relay sync-hooks …`: data source names and sync-trigger hooks from
// the shell, through the running server's admin API. The hook URL (with its secret) is printed by
// create and regenerate-secret only.
import type { Command } from 'commander';
import { adminCall, seg, type AdminAnswer } from './admin.ts';
import { TOP_LEVEL } from './topLevel.ts';
import { printJson } from './output.ts';

const issued = ({ hook, secret, url }: AdminAnswer) => ({ hook, secret, url });

export function registerDatasourcesCommands(program: Command): void {
  const ds = program.command('data-sources').description(TOP_LEVEL['data-sources']);
  ds.command('list')
    .description("list a bot's data sources with their names and last sync outcome")
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (o) => printJson((await adminCall('GET', `/bots/${seg(o.bot)}/data-sources?limit=100`)).dataSources));
  ds.command('rename')
    .description('set the name sync events carry')
    .argument('<dataSourceId>')
    .requiredOption('--bot <botId>', 'bot id')
    .requiredOption('--name <name>', 'new name')
    .action(async (id, o) => printJson((await adminCall('PATCH', `/bots/${seg(o.bot)}/data-sources/${seg(id)}`, { name: o.name })).dataSource));

  const sh = program.command('sync-hooks').description(TOP_LEVEL['sync-hooks']);
  const hook = (bot: string, id: string) => `/bots/${seg(bot)}/sync-hooks/${seg(id)}`;
  sh.command('create')
    .description('create a hook for a data source (disabled); prints its URL once')
    .requiredOption('--bot <botId>', 'bot id')
    .requiredOption('--data-source <dataSourceId>', 'data source to sync')
    .action(async (o) => printJson(issued(await adminCall('POST', `/bots/${seg(o.bot)}/data-sources/${seg(o.dataSource)}/sync-hooks`))));
  sh.command('list')
    .description("list a bot's sync hooks")
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (o) => printJson((await adminCall('GET', `/bots/${seg(o.bot)}/sync-hooks`)).hooks));
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    sh.command(name)
      .description(`${name} a hook`)
      .argument('<hookId>')
      .requiredOption('--bot <botId>', 'bot id')
      .action(async (id, o) => printJson((await adminCall('PUT', `${hook(o.bot, id)}/enabled`, { enabled })).hook));
  }
  sh.command('regenerate-secret')
    .description('issue a new secret; the old URL stops working; prints the new URL once')
    .argument('<hookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => printJson(issued(await adminCall('POST', `${hook(o.bot, id)}/secret`))));
  sh.command('delete')
    .description('delete a hook; its URL stops working')
    .argument('<hookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => {
      await adminCall('DELETE', hook(o.bot, id));
      printJson({ success: true });
    });
}
