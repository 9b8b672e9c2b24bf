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
import { serveEmbeddedDb } from './dbServe.ts';

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
Commands that act on data go through the running server's admin API, so its settings and checks
apply: the server is RELAY_URL (default http://127.0.0.1:PORT), the token ADMIN_TOKEN or the one the
server keeps in DATA_DIR/admin-token. "public" uses a channel's key instead. Offline, without a
server: "bootstrap" and "db" (on MONGODB_URI or the embedded FerretDB under DATA_DIR) and "gateway
check" / "dry-run" (on RULES_DIR). .env in the working directory is read. Run "relay <command> --help".`,
    );

  const db = program.command('db').description('the embedded database (FerretDB); works offline');
  db.command('install')
    .description('build FerretDB v1.24.2 with Relay’s patch (src/db/ferretdb-patch) with Go unless already installed; prints its path')
    .action(() => {
      process.stdout.write(`${ensureFerretBinary()}\n`);
    });

  db.command('serve')
    .description('run the embedded FerretDB alone, in the foreground, for several Relay processes (prints its MONGODB_URI; DATA_DIR/db, EMBEDDED_DB_PORT)')
    .option('--port <port>', 'port to listen on (default EMBEDDED_DB_PORT)')
    .action(async (opts: { port?: string }) => {
      await serveEmbeddedDb(opts);
    });

  registerPlatformCommands(program);
  registerDatasourcesCommands(program);
  registerWebhooksCommands(program);
  registerChatCommands(program);
  registerGatewayCommands(program);
  registerPublicCommands(program);
  return program;
}
