// Plan limits are configuration: these defaults apply unless PLAN_LIMITS_JSON overrides them.
// The spec leaves the numbers "not shown"; docs/API_NOTES.md ("Plans and limits") records these choices.
import { z } from 'zod';

export const PLANS = ['standard', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

export const PlanLimitsSchema = z.object({
  dataSourcesPerBot: z.number().int().min(0),
  storageTokens: z.number().int().min(0),
  chatTokens: z.number().int().min(0),
  maxMessageLength: z.number().int().min(1),
});
export type PlanLimits = z.infer<typeof PlanLimitsSchema>;

export const DEFAULT_PLAN_LIMITS: Record<PlanName, PlanLimits> = {
  standard: { dataSourcesPerBot: 5, storageTokens: 1_000_000, chatTokens: 1_000_000, maxMessageLength: 2_000 },
  pro: { dataSourcesPerBot: 25, storageTokens: 10_000_000, chatTokens: 10_000_000, maxMessageLength: 4_000 },
  enterprise: { dataSourcesPerBot: 200, storageTokens: 100_000_000, chatTokens: 100_000_000, maxMessageLength: 8_000 },
};

export function resolvePlanLimits(json?: string): Record<PlanName, PlanLimits> {
  if (!json) return DEFAULT_PLAN_LIMITS;
  const overrides = z.partialRecord(z.enum(PLANS), PlanLimitsSchema.partial().strict()).parse(JSON.parse(json));
  return Object.fromEntries(PLANS.map((p) => [p, { ...DEFAULT_PLAN_LIMITS[p], ...overrides[p] }])) as Record<PlanName, PlanLimits>;
}
