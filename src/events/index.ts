// The events module: a recurring sweep that re-dispatches events whose fan-out did not finish.
import type { DomainModule } from '../module.ts';
import { pruneEvents } from './retention.ts';
import { ensureRecurring, SWEEP_INTERVAL } from '../jobs/scheduler.ts';

export const REDISPATCH_JOB = 'events.redispatch';

export const eventsModule: DomainModule = {
  name: 'events',
  defineJobs(ctx) {
    ctx.jobs.define(REDISPATCH_JOB, async () => {
      await ctx.events.redispatchStale(30_000);
    });
  },
  async start(ctx, role) {
    if (!role.worker) return;
    await ensureRecurring(ctx.jobs, SWEEP_INTERVAL, REDISPATCH_JOB);
  },
  prune: pruneEvents,
};
