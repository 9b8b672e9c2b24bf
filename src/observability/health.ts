// Liveness and readiness: /healthz answers while the process runs; /readyz checks the database
// and the scheduler, so a load balancer stops sending traffic during an outage.
import type Router from '@koa/router';
import mongoose from 'mongoose';
import { registry } from './metrics.ts';

/** What the routes ask of the layers above, passed in by the app so this stays at the bottom. */
export interface HealthSources {
  /** Whether the job scheduler is there (readiness). */
  schedulerReady(): boolean;
  /** Refreshes the gauges read from the database at scrape time (jobs/metrics.ts). */
  refreshGauges(): Promise<void>;
}

async function databaseReady(): Promise<boolean> {
  try {
    const db = mongoose.connection.db;
    if (!db) return false;
    await Promise.race([db.command({ ping: 1 }), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000))]);
    return true;
  } catch {
    return false;
  }
}

export function healthRoutes(router: Router, sources: HealthSources): void {
  router.get('/healthz', (c) => {
    c.body = { success: true, status: 'ok' };
  });
  router.get('/readyz', async (c) => {
    const database = await databaseReady();
    const scheduler = sources.schedulerReady();
    c.status = database && scheduler ? 200 : 503;
    c.body = { success: c.status === 200, checks: { database, scheduler } };
  });
  router.get('/metrics', async (c) => {
    await sources.refreshGauges();
    c.type = registry.contentType;
    c.body = await registry.metrics();
  });
}
