// Process entry: read config, connect (or start the embedded database), then serve HTTP and/or
// process jobs according to ROLE. SIGTERM/SIGINT drain jobs and close everything in order.
import type http from 'node:http';
import { loadConfig, loadDotEnv, ConfigError } from './config.ts';
import { createLogger } from './observability/logger.ts';
import { resolveDatabase } from './db/resolve.ts';
import { EmbeddedDbUnavailable } from './db/ferretdb.ts';
import { createRuntime } from './runtime.ts';
import { createApp } from './app.ts';
import { createHttpServer, listen, ListenError } from './http/server.ts';
import { ensureLocalAdminToken, localAdminTokenFile } from './http/localAdminToken.ts';

async function main() {
  loadDotEnv();
  let config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  if (!config.ADMIN_TOKEN && !config.MONGODB_URI) {
    config = { ...config, ADMIN_TOKEN: ensureLocalAdminToken(config.dataDir) };
    logger.info(`relay: admin token for the console and admin API is in ${localAdminTokenFile(config.dataDir)} (set ADMIN_TOKEN to choose one)`);
  }
  const role = { api: config.ROLE !== 'worker', worker: config.ROLE !== 'api' };
  // Signal handlers come first so a SIGTERM during start-up still shuts down in order.
  let stopping = false;
  let server: http.Server | undefined;
  let runtime: Awaited<ReturnType<typeof createRuntime>> | undefined;
  let db: Awaited<ReturnType<typeof resolveDatabase>> | undefined;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'relay: shutting down');
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeAllConnections();
    await runtime?.shutdown();
    await db?.embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // `npm start` passes this: a SIGKILLed npm cannot forward a signal, so the server notices its
  // parent is gone (it is re-parented) and stops with the database it started.
  if (process.argv.includes('--exit-with-parent')) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void shutdown('parent exited');
    }, 1000).unref();
  }

  db = await resolveDatabase(config, (line) => logger.info(line));
  runtime = await createRuntime({ config, logger, uri: db.uri, role }).catch(async (err) => {
    await db?.embedded?.stop();
    throw err;
  });

  if (role.api) {
    const app = createApp(runtime.ctx, runtime.modules);
    server = createHttpServer(app.callback(), config);
    const port = await listen(server, config.PORT, config.HOST).catch(async (err) => {
      server = undefined;
      await runtime?.shutdown();
      await db?.embedded?.stop();
      throw err;
    });
    logger.info({ role: config.ROLE, port }, `relay: listening on http://${config.HOST}:${port}`);
  }
  if (role.worker) {
    await runtime.startWorker();
    logger.info({ role: config.ROLE }, 'relay: worker processing jobs');
  }
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof EmbeddedDbUnavailable || err instanceof ListenError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`relay: failed to start: ${err?.stack ?? err}\n`);
  }
  process.exit(1);
});
