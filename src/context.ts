// What every domain receives: configuration, logging, the scheduler, the event bus and the clock.
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { EventBus } from './events/service.ts';
import type { Scheduler } from './jobs/scheduler.ts';
import type { Logger } from './observability/logger.ts';
import type { InstanceRegistry } from './jobs/fleet.ts';
import type { PlanLimits, PlanName } from './plans.ts';

export interface AppContext {
  config: Config;
  logger: Logger;
  jobs: Scheduler;
  events: EventBus;
  clock: Clock;
  planLimits: Record<PlanName, PlanLimits>;
  /** This process among the instances sharing the database (jobs/fleet.ts). */
  fleet: InstanceRegistry;
}
