// The webhooks domain module: hook configuration and delivery log (admin API, CLI), the event
// fan-out, first attempts in-process, retries on Agenda and a sweep for anything left behind.
// See docs/WEBHOOKS.md.
import type { DomainModule } from '../module.ts';
import { defineDeliveryJob } from './delivery.job.ts';
import { handToLane } from './dispatcher.ts';
import { recordAbandoned } from './fanout.ts';
import { webhookAdminRoutes } from './routes.ts';
import { createWebhooksState, type WebhooksOptions, type WebhooksState } from './state.ts';
import { performSweep, SWEEP_JOB } from './sweep.job.ts';
import { pruneDeliveries } from './retention.ts';
import { ensureRecurring, SWEEP_INTERVAL } from '../jobs/scheduler.ts';

export type WebhooksModule = DomainModule & { state(): WebhooksState };

export function createWebhooksModule(opts: WebhooksOptions = {}): WebhooksModule {
  let current: WebhooksState | null = null;
  const state = () => {
    if (!current) throw new Error('webhooks module not started');
    return current;
  };
  return {
    name: 'webhooks',
    state,
    adminRoutes: (router, ctx) => webhookAdminRoutes(router, ctx, state),
    defineJobs(ctx) {
      current = createWebhooksState(ctx, opts);
      defineDeliveryJob(ctx.jobs, current.deps, ctx.config.JOB_LOCK_LIFETIME_MS, (deliveryId) => handToLane(ctx.clock.now(), state().dispatcher, deliveryId));
      ctx.jobs.define(SWEEP_JOB, async () => {
        await performSweep(ctx, state().sweepAfterMs);
      });
    },
    async start(ctx, role) {
      // Every role subscribes: events are emitted by api processes (chat) and workers (syncs) alike.
      ctx.events.subscribe(async (event) => {
        const s = state();
        s.dispatcher.dispatch(await s.fanOut.add(event));
      });
      ctx.events.onAbandon((event, reason) => recordAbandoned(ctx.clock, event, reason));
      if (!role.worker) return;
      await ensureRecurring(ctx.jobs, SWEEP_INTERVAL, SWEEP_JOB);
    },
    prune: (before) => pruneDeliveries(before),
    async stop() {
      await current?.dispatcher.idle(20_000);
      await current?.dispatcher.close();
      await current?.firstAttempts.drained();
      await current?.outbound.close();
      current = null;
    },
  };
}

export const webhooksModule = createWebhooksModule();
