// Admin-facing shapes of tenancy records; secrets and hashes never leave through these.
import type { ApiChannel, Bot, Team } from './model.ts';
import type { PlanLimits, PlanName } from '../plans.ts';

export const presentTeam = (t: Team, planLimits?: Record<PlanName, PlanLimits>) => ({
  id: t.id,
  name: t.name,
  plan: t.plan,
  limits: planLimits ? effectiveLimits(t, planLimits) : t.limits,
  usage: { storageTokens: t.usage?.storageTokens ?? 0, chatTokens: t.usage?.chatTokens ?? 0 },
  createdAt: t.createdAt,
});

export const presentBot = (b: Bot) => ({
  id: b.id,
  teamId: b.teamId,
  name: b.name,
  instructions: b.instructions,
  welcomeMessage: b.welcomeMessage,
  maxMessageLength: b.maxMessageLength ?? null,
  powerUps: b.powerUps,
  createdAt: b.createdAt,
});

export const presentChannel = (c: ApiChannel) => ({
  channelId: c.id,
  botId: c.botId,
  teamId: c.teamId,
  name: c.name,
  enabled: c.enabled,
  createdAt: c.createdAt,
});

/** The team's limits: its own overrides over its plan's defaults. */
export function effectiveLimits(team: Pick<Team, 'plan' | 'limits'>, planLimits: Record<PlanName, PlanLimits>): PlanLimits {
  const base = planLimits[team.plan as PlanName];
  const own = (team.limits ?? {}) as Partial<PlanLimits>;
  return {
    dataSourcesPerBot: own.dataSourcesPerBot ?? base.dataSourcesPerBot,
    storageTokens: own.storageTokens ?? base.storageTokens,
    chatTokens: own.chatTokens ?? base.chatTokens,
    maxMessageLength: own.maxMessageLength ?? base.maxMessageLength,
  };
}
