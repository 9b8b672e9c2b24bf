// The `relay` command. Every subcommand has --help and prints JSON for scripting (see program.ts).
// Error classes are loaded only on failure: the help and a server call stay free of their modules.
import { CommanderError } from 'commander';
import { buildProgram } from './program.ts';

async function describeError(err: unknown): Promise<string> {
  const [{ AppError }, { ConfigError }, { EmbeddedDbUnavailable }] = await Promise.all([
    import('../http/errors.ts'),
    import('../config.ts'),
    import('../db/ferretdb.ts'),
  ]);
  if (err instanceof AppError) return `${err.code}: ${err.message}`;
  if (err instanceof ConfigError || err instanceof EmbeddedDbUnavailable) return err.message;
  return String((err as Error)?.message ?? err);
}

// .env in the working directory; a variable already in the environment wins (as config.ts's loadDotEnv).
try {
  process.loadEnvFile('.env');
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
try {
  await (await buildProgram(process.argv)).parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`relay: ${await describeError(err)}\n`);
  process.exit(1);
}
