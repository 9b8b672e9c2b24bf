// `relay db install`: builds the embedded FerretDB ahead of the first start.
import type { Command } from 'commander';
import { TOP_LEVEL } from './topLevel.ts';

export function registerDatabaseCommands(program: Command): void {
  const db = program.command('db').description(TOP_LEVEL.db);
  db.command('install')
    .description('build FerretDB v1.24.2 with Relay’s patch with Go unless already installed; prints its path')
    .action(async () => {
      const { ensureFerretBinary } = await import('../db/ferretdb.ts');
      process.stdout.write(`${ensureFerretBinary()}\n`);
    });
}
