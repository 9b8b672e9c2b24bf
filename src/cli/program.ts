// The `relay` command tree, built without running anything, so tests can walk every command's help.
// Only the group a call names is loaded (commands.ts); help and unknown commands load none.
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { GROUPS } from './commands.ts';
import { TOP_LEVEL, type TopLevelName } from './topLevel.ts';

/** `argv` (process.argv) picks the one group to load; without it every group is loaded. */
export async function buildProgram(argv?: string[]): Promise<Command> {
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

  // `relay help <command>` names its group second.
  const words = argv?.slice(2).filter((arg) => !arg.startsWith('-')) ?? [];
  const named = words[0] === 'help' ? words[1] : words[0];
  const group = named === undefined ? undefined : GROUPS.find((g) => g.names.includes(named as TopLevelName));
  if (!argv) {
    for (const g of GROUPS) (await g.load())(program);
  } else if (group) {
    (await group.load())(program);
  } else {
    // Help, the version or an unknown command: the names and descriptions are enough.
    for (const [name, description] of Object.entries(TOP_LEVEL)) program.command(name).description(description);
  }
  return program;
}
