// What the webhooks module holds while it runs: the outbound client, the retry schedule and the
// dispatcher of first attempts. Built once per runtime from its config and the module options.
import type { AppContext } from '../context.ts';
import { createOutboundClient, type OutboundClient, type OutboundClientOptions } from '../outbound/client.ts';
import type { DeliveryDeps } from './delivery.job.ts';
import { DeliveryDispatcher } from './dispatcher.ts';
import { hookLimits } from './fleetLimits.ts';
import { FanOut } from './fanout.ts';
import { HookHealth } from './health.ts';
import { FirstAttemptRecords } from './firstAttempts.ts';
import type { RequestLimits } from './unsendable.ts';
import { DEFAULT_JITTER_RATIO, DEFAULT_RETRY_DELAYS_MS, retrySchedule, type RetrySchedule } from './retry.ts';

export interface WebhooksOptions {
  /** Waits between attempts (attempts = waits + 1); tests pass a few milliseconds. */
  retryDelaysMs?: number[];
  jitterRatio?: number;
  /** Source of the jitter, in [0, 1); Math.random unless a test pins it. */
  random?: () => number;
  /** Builds the HTTP client for attempts and test sends from the config's outbound settings. */
  createOutbound?: (options: OutboundClientOptions) => OutboundClient & { close(): Promise<void> };
  /** How long past due a pending delivery may sit before the sweep re-enqueues it. */
  sweepAfterMs?: number;
  /** First attempts run at once in the emitting process, this many at a time. */
  dispatchConcurrency?: number;
  /** The rendered request's limits (unsendable.ts); tests raise them to reach the database's own. */
  requestLimits?: RequestLimits;
}

export interface WebhooksState {
  outbound: OutboundClient & { close(): Promise<void> };
  schedule: RetrySchedule;
  deps: DeliveryDeps;
  dispatcher: DeliveryDispatcher;
  fanOut: FanOut;
  firstAttempts: FirstAttemptRecords;
  health: HookHealth;
  sweepAfterMs: number;
}

export function createWebhooksState(ctx: AppContext, opts: WebhooksOptions): WebhooksState {
  const { config } = ctx;
  const outbound = (opts.createOutbound ?? createOutboundClient)({
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    responseLimitBytes: config.OUTBOUND_RESPONSE_LIMIT_BYTES,
  });
  const schedule = retrySchedule(opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS, opts.jitterRatio ?? DEFAULT_JITTER_RATIO, opts.random);
  // The lease outlives the total timeout, so a slow attempt is never taken for a dead one.
  const health = new HookHealth(ctx, config.WEBHOOK_DISABLE_AFTER_FAILING_HOURS * 3600_000);
  const deps: DeliveryDeps = { ctx, outbound, schedule, leaseMs: config.OUTBOUND_TIMEOUT_MS + 5_000, health };
  const firstAttempts = new FirstAttemptRecords(ctx.logger);
  return {
    outbound,
    schedule,
    deps,
    dispatcher: new DeliveryDispatcher(deps, opts.dispatchConcurrency ?? 64, config.WEBHOOK_HOOK_CONCURRENCY, hookLimits),
    // Twice the lease: a first attempt may wait up to one lease for a slot in a burst (dispatcher.ts).
    fanOut: new FanOut(ctx, schedule, 2 * deps.leaseMs, firstAttempts, health, opts.requestLimits),
    firstAttempts,
    health,
    sweepAfterMs: opts.sweepAfterMs ?? Math.max(2 * config.JOB_LOCK_LIFETIME_MS, 2 * deps.leaseMs),
  };
}
