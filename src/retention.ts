// Retention: every hour a worker deletes the records of finished work older than RETENTION_DAYS,
// through each module's `prune` (module.ts), so logs that grow with traffic (events, webhook
// deliveries, gateway deliveries) do not grow for ever. User data (bots, sources, rows,
// conversations) is never pruned here.
import type { AppContext } from './context.ts';
import type { DomainModule } from './module.ts';
import { ensureRecurring } from './jobs/scheduler.ts';

export const RETENTION_JOB = 'retention.prune';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Prunes every module's old records once; returns what was deleted, by collection. */
export async function pruneOldRecords(ctx: Pick<AppContext, 'config' | 'clock' | 'logger'>, modules: DomainModule[]): Promise<Record<string, number>> {
  const days = ctx.config.RETENTION_DAYS;
  if (!days) return {};
  const before = new Date(ctx.clock.now().getTime() - days * DAY_MS);
  const counts: Record<string, number> = {};
  for (const m of modules) if (m.prune) Object.assign(counts, await m.prune(before));
  ctx.logger.info({ before, ...counts }, 'retention: old records of finished work deleted');
  return counts;
}

export function defineRetention(ctx: AppContext, modules: DomainModule[]): void {
  ctx.jobs.define(RETENTION_JOB, async () => {
    await pruneOldRecords(ctx, modules);
  });
}

/** Hourly, so each run deletes about an hour's worth of records instead of a day's at once. */
export async function scheduleRetention(ctx: AppContext): Promise<void> {
  if (ctx.config.RETENTION_DAYS) await ensureRecurring(ctx.jobs, '1 hour', RETENTION_JOB);
}
