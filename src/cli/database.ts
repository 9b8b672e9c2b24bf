// `relay db install` builds the embedded FerretDB ahead of the first start; `relay db serve` runs it
// alone for several local processes (dbServe.ts).
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
  db.command('serve')
    .description('run the embedded FerretDB alone, in the foreground, for several Relay processes (prints its MONGODB_URI; DATA_DIR/db, EMBEDDED_DB_PORT)')
    .option('--port <port>', 'port to listen on (default EMBEDDED_DB_PORT)')
    .action(async (opts: { port?: string }) => {
      const { serveEmbeddedDb } = await import('./dbServe.ts');
      await serveEmbeddedDb(opts);
    });
}
