// The `relay` command. Every subcommand has --help and prints JSON for scripting (see program.ts).
import { CommanderError } from 'commander';
import { AppError } from '../http/errors.ts';
import { ConfigError, loadDotEnv } from '../config.ts';
import { EmbeddedDbUnavailable } from '../db/ferretdb.ts';
import { buildProgram } from './program.ts';

loadDotEnv();
buildProgram().parseAsync(process.argv).catch((err) => {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const message =
    err instanceof AppError ? `${err.code}: ${err.message}` : err instanceof ConfigError || err instanceof EmbeddedDbUnavailable ? err.message : String(err?.message ?? err);
  process.stderr.write(`relay: ${message}\n`);
  process.exit(1);
});
