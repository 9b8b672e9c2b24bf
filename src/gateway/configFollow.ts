// Keeps the gateway configuration of every instance in step: an admin reload on one instance bumps
// a generation in the database that every api and worker instance follows on its next fleet poll
// (FLEET_POLL_MS), and each instance also notices an edit of its own GATEWAY_CONFIG file. Each
// instance reports the version it runs (a digest of the file) in the instance registry, so
// `GET /api/admin/gateway/sources` shows whether they agree. Secrets never leave the file.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import type { InstanceView } from '../jobs/fleet.ts';
import { GatewayConfigError } from './sources.ts';
import type { GatewayState } from './state.ts';

export const GATEWAY_CONFIG_SETTING = 'gateway.config';

export interface AppliedConfig {
  /** First 12 hex digits of the file's SHA-256; `none` without GATEWAY_CONFIG. */
  version: string;
  /** The reload generation this instance has followed. */
  generation: number;
  appliedAt: Date;
  /** Why the latest version could not be applied (the previous one still runs). */
  error: string | null;
}

function versionOf(file: string | undefined): string {
  if (!file) return 'none';
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
  } catch {
    return 'unreadable';
  }
}

export interface ConfigFollower {
  applied(): AppliedConfig;
  /** Applies a newer generation or an edited file; called on every fleet poll. */
  follow(): Promise<void>;
  /** The admin reload: re-reads here (throws GatewayConfigError, changing nothing), then tells every instance. */
  reloadEverywhere(): Promise<AppliedConfig>;
}

export async function followGatewayConfig(ctx: AppContext, state: GatewayState): Promise<ConfigFollower> {
  const file = ctx.config.GATEWAY_CONFIG;
  let applied: AppliedConfig = { version: versionOf(file), generation: await ctx.fleet.generation(GATEWAY_CONFIG_SETTING), appliedAt: ctx.clock.now(), error: null };
  let refused: string | null = null;
  const report = () => ctx.fleet.report('gateway', { config: applied });
  const reloadHere = (version: string, generation: number) => {
    state.reloadSources();
    state.rules.reload();
    applied = { version, generation, appliedAt: ctx.clock.now(), error: null };
    refused = null;
  };
  await report();

  return {
    applied: () => applied,
    async follow() {
      const [generation, version] = [await ctx.fleet.generation(GATEWAY_CONFIG_SETTING), versionOf(file)];
      const reloaded = generation !== applied.generation;
      if (!reloaded && version === applied.version && applied.error) {
        // The file is back to the version this instance runs.
        applied = { ...applied, error: null };
        refused = null;
        return report();
      }
      if (!reloaded && (version === applied.version || version === refused)) return;
      try {
        reloadHere(version, generation);
        ctx.logger.info({ version, generation }, 'gateway: configuration reloaded to follow the fleet');
      } catch (err) {
        if (!(err instanceof GatewayConfigError)) throw err;
        refused = version;
        applied = { ...applied, generation, error: err.message };
        ctx.logger.error({ version, error: err.message }, 'gateway: the configuration file is invalid; the previous configuration stays');
      }
      await report();
    },
    async reloadEverywhere() {
      const version = versionOf(file);
      reloadHere(version, applied.generation);
      applied = { ...applied, generation: await ctx.fleet.bump(GATEWAY_CONFIG_SETTING) };
      await report();
      return applied;
    },
  };
}

/** The instances heard from lately and the gateway configuration each runs (no secrets: a digest). */
export function presentInstances(instances: InstanceView[]) {
  return instances.map((i) => {
    const config = (i.reports.gateway as { config?: AppliedConfig } | undefined)?.config ?? null;
    return {
      id: i.id,
      role: i.role,
      host: i.host,
      pid: i.pid,
      startedAt: i.startedAt.toISOString(),
      heartbeatAt: i.heartbeatAt.toISOString(),
      config: config && { version: config.version, generation: config.generation, appliedAt: new Date(config.appliedAt).toISOString(), error: config.error },
    };
  });
}
