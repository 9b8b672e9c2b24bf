// A domain plugs into the service through one DomainModule: its routes, its jobs and its
// start/stop hooks. src/modules.ts lists them; nothing else needs editing to add a domain.
import type Router from '@koa/router';
import type { AppContext } from './context.ts';
import type { PublicState } from './platform/publicAuth.ts';
import type { UpgradeStep } from './upgrades/registry.ts';

export interface DomainModule {
  name: string;
  /** Routes under /api/public/channels/:channelId/:version, already authenticated. */
  publicRoutes?(router: Router<PublicState>, ctx: AppContext): void;
  /** Routes under /api/admin, already authenticated with the admin token. */
  adminRoutes?(router: Router, ctx: AppContext): void;
  /** Routes at the root with their own authentication (sync-trigger hooks, gateway intake). */
  rootRoutes?(router: Router, ctx: AppContext): void;
  /** Paths whose raw body the module reads itself (the JSON parser leaves them alone). */
  rawBodyPaths?: RegExp[];
  /** Agenda job definitions; called in every role so enqueuing and processing agree. */
  defineJobs?(ctx: AppContext): void;
  /** Called once after jobs are defined, before traffic; subscribe to events, load rules, ... */
  start?(ctx: AppContext, role: { worker: boolean; api: boolean }): Promise<void>;
  /**
   * Deletes the records of finished work (logs, not user data) older than `before`; counts by
   * collection. Run by the retention job (retention.ts) when RETENTION_DAYS is set.
   */
  prune?(before: Date): Promise<Record<string, number>>;
  stop?(): Promise<void>;
  /** This domain's steps of changes to stored data (upgrades/registry.ts); none in 1.0.0. */
  upgrades?: UpgradeStep[];
}
