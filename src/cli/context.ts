// How CLI commands reach the service: the same runtime as the server (no HTTP, no worker),
// against MONGODB_URI or the embedded database, closed when the command ends.
import { loadConfig } from '../config.ts';
import { createLogger } from '../observability/logger.ts';
import { resolveDatabase } from '../db/resolve.ts';
import { createRuntime, type Runtime } from '../runtime.ts';

export async function withRuntime<T>(fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const db = await resolveDatabase(config, (line) => process.stderr.write(`${line}\n`));
  try {
    const runtime = await createRuntime({ config, logger, uri: db.uri, role: { api: false, worker: false } });
    try {
      return await fn(runtime);
    } finally {
      await runtime.shutdown();
    }
  } finally {
    await db.embedded?.stop();
  }
}
