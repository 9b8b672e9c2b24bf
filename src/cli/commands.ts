// The `relay` command's top-level groups and the module that registers each
// group. program.ts loads only the group a call names, so `relay --help` and a one-command call
// never import the database driver, the AI SDK or the rule engine they do not use.
import type { Command } from 'commander';
import type { TopLevelName } from './topLevel.ts';

type Register = (program: Command) => void;

export { TOP_LEVEL, type TopLevelName } from './topLevel.ts';

/** Each group registers the top-level commands listed with it. */
export const GROUPS: Array<{ names: TopLevelName[]; load: () => Promise<Register> }> = [
  { names: ['db'], load: async () => (await import('./database.ts')).registerDatabaseCommands },
  { names: ['bootstrap', 'teams', 'bots', 'channels'], load: async () => (await import('./platform.ts')).registerPlatformCommands },
  { names: ['data-sources', 'sync-hooks'], load: async () => (await import('./datasources.ts')).registerDatasourcesCommands },
  { names: ['webhooks'], load: async () => (await import('./webhooks.ts')).registerWebhooksCommands },
  { names: ['conversations'], load: async () => (await import('./chat.ts')).registerChatCommands },
  { names: ['gateway', 'rules'], load: async () => (await import('./gateway.ts')).registerGatewayCommands },
  { names: ['public'], load: async () => (await import('./public.ts')).registerPublicCommands },
];
