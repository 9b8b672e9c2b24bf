// Admin API request schemas for tenancy.
import { z } from 'zod';
import { PLANS } from '../plans.ts';

export const TeamCreateSchema = z.object({ name: z.string().min(1).max(200), plan: z.enum(PLANS).optional() });
export const TeamPlanSchema = z.object({
  plan: z.enum(PLANS),
  limits: z
    .object({
      dataSourcesPerBot: z.number().int().min(0),
      storageTokens: z.number().int().min(0),
      chatTokens: z.number().int().min(0),
      maxMessageLength: z.number().int().min(1),
    })
    .partial()
    .optional(),
});
export const BotCreateSchema = z.object({
  teamId: z.string().uuid(),
  name: z.string().min(1).max(200),
  instructions: z.string().max(20_000).optional(),
  welcomeMessage: z.string().max(2_000).optional(),
  maxMessageLength: z.number().int().min(1).nullable().optional(),
  powerUps: z.array(z.string().max(100)).max(20).optional(),
});
export const BotUpdateSchema = BotCreateSchema.omit({ teamId: true }).partial();
export const ChannelCreateSchema = z.object({ botId: z.string().uuid(), name: z.string().min(1).max(200).optional() });
export const ChannelEnabledSchema = z.object({ enabled: z.boolean() });
export const BootstrapSchema = z.object({
  team: z.string().min(1).max(200).optional(),
  bot: z.string().min(1).max(200).optional(),
  plan: z.enum(PLANS).optional(),
});
