// The gateway domain module: signed webhook intake at POST /gateway/:source, de-duplication,
// rules-as-files (RULES_DIR) and their actions as jobs, plus admin views. See docs/GATEWAY.md.
import type { AppContext } from '../context.ts';
import type { DomainModule } from '../module.ts';
import { DEFAULT_RETRY_DELAYS_MS, performAction, RetryableActionError } from './action.job.ts';
import { performProcess } from './process.job.ts';
import { adminRoutes, INTAKE_PATH, intakeRoutes } from './routes.ts';
import { ACTION_JOB, PROCESS_JOB, SWEEP_JOB, type ActionJobData, type ProcessJobData } from './service.ts';
import { createGatewayState, type GatewayState } from './state.ts';
import { performSweep } from './sweep.job.ts';
import { pruneGateway } from './retention.ts';
import { ensureRecurring, SWEEP_INTERVAL } from '../jobs/scheduler.ts';
import { followGatewayConfig, type ConfigFollower } from './configFollow.ts';

export interface GatewayOptions {
  /** Delays between action attempts (attempts = delays + 1); tests pass short ones. */
  retryDelaysMs?: number[];
  /** How long a stored delivery may wait unprocessed before the sweep enqueues it again (default 2 × JOB_LOCK_LIFETIME_MS). */
  sweepAfterMs?: number;
  rulesDebounceMs?: number;
}

export function createGatewayModule(opts: GatewayOptions = {}): DomainModule & { state(): GatewayState; follower(): ConfigFollower } {
  const retryDelaysMs = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let current: GatewayState | null = null;
  let following: ConfigFollower | null = null;
  const state = () => {
    if (!current) throw new Error('gateway module not started');
    return current;
  };
  const follower = () => {
    if (!following) throw new Error('gateway module not started');
    return following;
  };

  return {
    name: 'gateway',
    state,
    follower,
    rawBodyPaths: [INTAKE_PATH],
    rootRoutes: (router, ctx) => intakeRoutes(router, ctx, state),
    adminRoutes: (router, ctx) => adminRoutes(router, ctx, state, follower),
    defineJobs(ctx: AppContext) {
      const view = () => ({ rules: state().rules.rules, vars: state().vars });
      ctx.jobs.define<ProcessJobData>(PROCESS_JOB, (job) => performProcess(ctx, view, job.attrs.data, () => job.touch()), {
        concurrency: 10,
        backoff: (c) => (c.attempt <= 5 ? 1000 * 2 ** c.attempt : null),
      });
      ctx.jobs.define<ActionJobData>(
        ACTION_JOB,
        (job) => {
          const s = state();
          return performAction(ctx, { mailer: s.mailer, outbound: s.outbound, sourceOf: (name) => s.sources.get(name) ?? null }, retryDelaysMs, job.attrs.data, () => job.touch());
        },
        // The action's own schedule travels with its error; anything else (database trouble) is
        // retried on the same delays, and the sweep covers what is still waiting after that.
        { concurrency: 10, backoff: (c) => (c.error instanceof RetryableActionError ? c.error.delayMs : (retryDelaysMs[c.attempt - 1] ?? null)) },
      );
      ctx.jobs.define(SWEEP_JOB, async () => {
        // Twice the job lock: a job that is merely running holds its lock and touches it meanwhile.
        await performSweep(ctx, opts.sweepAfterMs ?? 2 * ctx.config.JOB_LOCK_LIFETIME_MS);
      });
    },
    async start(ctx, role) {
      current = createGatewayState(ctx, { rulesDebounceMs: opts.rulesDebounceMs });
      current.rules.watch();
      const started = current;
      following = await followGatewayConfig(ctx, started);
      const follow = following.follow;
      ctx.fleet.follow(async () => {
        if (current === started) await follow();
      });
      if (!role.worker) return;
      await ensureRecurring(ctx.jobs, SWEEP_INTERVAL, SWEEP_JOB);
    },
    prune: (before) => pruneGateway(before),
    async stop() {
      await current?.close();
      current = null;
      following = null;
    },
  };
}

export const gatewayModule = createGatewayModule();
