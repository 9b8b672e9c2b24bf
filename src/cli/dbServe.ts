// `relay db serve`: the embedded FerretDB on its own, in the foreground, for several local Relay
// processes (api and worker instances) that point MONGODB_URI at it, or share its DATA_DIR and
// EMBEDDED_DB_PORT. It stops with this command (SIGTERM, SIGINT or Ctrl-C), not with any of them;
// the processes using it then answer 503 until it is back.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { portAcceptsConnections } from '../db/ferretdb.ts';
import { prepareDataDir, startOwnEmbeddedDb } from '../db/resolve.ts';

export async function serveEmbeddedDb(opts: { port?: string }): Promise<void> {
  const config = loadConfig();
  const port = opts.port ? Number(opts.port) : config.EMBEDDED_DB_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`--port must be a port number, not ${opts.port}`);
  if (await portAcceptsConnections(port)) throw new Error(`port ${port} is in use (is the embedded database already running?)`);
  prepareDataDir(config.dataDir);
  const dataDir = fs.realpathSync(config.dataDir);
  const db = await startOwnEmbeddedDb(dataDir, port);
  process.stdout.write(`${JSON.stringify({ uri: db.uri, port, dataDir: path.join(dataDir, 'db') })}\n`);
  process.stderr.write(`relay: embedded database serving on ${db.uri}; set MONGODB_URI to it in each process; Ctrl-C stops it\n`);
  let stopping = false;
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopping = true;
      void db.stop().then(resolve);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    db.process.once('exit', () => {
      // Not asked to stop: the database died (killed, out of memory, a crash). A supervisor that
      // restarts on failure must see a failure.
      if (!stopping) {
        process.stderr.write('relay: the embedded database exited on its own; its errors are in DATA_DIR/db/ferretdb.log\n');
        process.exitCode = 1;
      }
      resolve();
    });
  });
}
