// Builds the running service from a config and a database URI: connection, indexes, scheduler,
// event bus and domain modules. main.ts, the CLI and the tests all start from here.
import type { Config } from './config.ts';
import { connectDatabase, disconnectDatabase, ensureIndexes } from './db/connection.ts';
import { createScheduler } from './jobs/scheduler.ts';
import { runUpgrades } from './upgrades/registry.ts';
import { instrumentScheduler } from './jobs/metrics.ts';
import { EventBus } from './events/service.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Logger } from './observability/logger.ts';
import type { AppContext } from './context.ts';
import type { DomainModule } from './module.ts';
import { resolvePlanLimits } from './plans.ts';
import { modules as allModules } from './modules.ts';
import { defineRetention, scheduleRetention } from './retention.ts';
import { InstanceRegistry } from './jobs/fleet.ts';

export interface Runtime {
  ctx: AppContext;
  modules: DomainModule[];
  /** Starts job processing (worker role). */
  startWorker(): Promise<void>;
  /** Drains running jobs, stops modules and closes the database. */
  shutdown(): Promise<void>;
}

export interface RuntimeOptions {
  config: Config;
  logger: Logger;
  uri: string;
  role?: { api: boolean; worker: boolean };
  clock?: Clock;
  modules?: DomainModule[];
}

export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const role = opts.role ?? { api: true, worker: true };
  const clock = opts.clock ?? systemClock;
  const modules = opts.modules ?? allModules;
  const mongoose = await connectDatabase(opts.uri, {
    watchdog: {
      onEvent: (e) => {
        if (e.type === 'stalled') opts.logger.error(e, 'database: server monitor stalled, restarting the client');
        else if (e.type === 'restarted') opts.logger.warn(e, 'database: client restarted after a stalled server monitor');
        else opts.logger.warn({ attempt: e.attempt, err: e.err }, 'database: client restart failed, retrying');
      },
    },
  });
  const dropped = await ensureIndexes();
  if (dropped.length) opts.logger.info({ dropped }, 'database: dropped indexes the schemas no longer declare');
  const jobs = createScheduler(mongoose.connection.db!, opts.config);
  jobs.on('error', (err) => opts.logger.error({ err }, 'scheduler error'));
  instrumentScheduler(mongoose.connection.db!);
  const roleName = role.api && role.worker ? 'all' : role.api ? 'api' : 'worker';
  const ctx: AppContext = {
    fleet: new InstanceRegistry({ role: roleName, clock, pollMs: opts.config.FLEET_POLL_MS, logger: opts.logger }),
    config: opts.config,
    logger: opts.logger,
    jobs,
    events: new EventBus(clock, opts.logger),
    clock,
    planLimits: resolvePlanLimits(opts.config.PLAN_LIMITS_JSON),
  };
  for (const m of modules) m.defineJobs?.(ctx);
  defineRetention(ctx, modules);
  await jobs.ready;
  for (const m of modules) await m.start?.(ctx, role);
  if (role.worker) await scheduleRetention(ctx);
  if (role.api || role.worker) {
    ctx.fleet.start();
    await ctx.fleet.tick();
  }

  let workerStarted = false;
  return {
    ctx,
    modules,
    async startWorker() {
      // Before the worker takes jobs: each step once across every instance (upgrades/registry.ts).
      await runUpgrades(mongoose.connection.db!, modules.flatMap((m) => m.upgrades ?? []), { runner: jobs.attrs.name ?? `relay-${process.pid}`, logger: opts.logger });
      await jobs.start();
      workerStarted = true;
    },
    async shutdown() {
      // drain(), not stop(): running jobs finish instead of being unlocked mid-attempt.
      if (workerStarted) await jobs.drain(25_000);
      await ctx.fleet.stop();
      for (const m of [...modules].reverse()) await m.stop?.();
      await ctx.events.flush();
      await disconnectDatabase();
    },
  };
}
