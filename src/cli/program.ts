// The `relay` command tree, built without running anything, so tests can walk every command's help.
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { ensureFerretBinary } from '../db/ferretdb.ts';
import { registerPlatformCommands } from './platform.ts';
import { registerDatasourcesCommands } from './datasources.ts';
import { registerWebhooksCommands } from './webhooks.ts';
import { registerChatCommands } from './chat.ts';
import { registerGatewayCommands } from './gateway.ts';
import { registerPublicCommands } from './public.ts';

export function buildProgram(): Command {
  const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

  const program = new Command('relay')
    .description('Relay: bot platform and webhook gateway')
    .version(version, '-v, --version', 'print the version')
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Results are printed as JSON on stdout (for scripting, e.g. | jq); progress and errors go to stderr.
Exit codes: 0 done, 1 failed (the message names the error code, e.g. "relay: channel_not_found: ...").
The commands use the same configuration as the server (see .env.example): MONGODB_URI, or the
embedded FerretDB under DATA_DIR when it is unset. Run "relay <command> --help" for each command.`,
    );

  const db = program.command('db').description('the embedded database (FerretDB)');
  db.command('install')
    .description('build FerretDB v1.24.2 and its _id index helper with Go unless already installed; prints its path')
    .action(() => {
      process.stdout.write(`${ensureFerretBinary()}\n`);
    });

  registerPlatformCommands(program);
  registerDatasourcesCommands(program);
  registerWebhooksCommands(program);
  registerChatCommands(program);
  registerGatewayCommands(program);
  registerPublicCommands(program);
  return program;
}
