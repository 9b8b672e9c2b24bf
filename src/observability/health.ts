// Liveness and readiness: /healthz answers while the process runs; /readyz checks the database
// and the scheduler, so a load balancer stops sending traffic during an outage.
import type Router from '@koa/router';
import mongoose from 'mongoose';
import type { AppContext } from '../context.ts';
import { registry } from './metrics.ts';
import { refreshJobGauges } from '../jobs/metrics.ts';

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

export function healthRoutes(router: Router, ctx: AppContext): void {
  router.get('/healthz', (c) => {
    c.body = { success: true, status: 'ok' };
  });
  router.get('/readyz', async (c) => {
    const database = await databaseReady();
    const scheduler = Boolean(ctx.jobs);
    c.status = database && scheduler ? 200 : 503;
    c.body = { success: c.status === 200, checks: { database, scheduler } };
  });
  router.get('/metrics', async (c) => {
    await refreshJobGauges();
    c.type = registry.contentType;
    c.body = await registry.metrics();
  });
}
