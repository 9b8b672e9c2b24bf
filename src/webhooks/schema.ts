// Admin API request schemas for outgoing webhooks and their delivery log.
import { z } from 'zod';
import { isStorableKey, uuid } from '../http/validate.ts';
import { PageQuerySchema } from '../http/pagination.ts';
import { CUSTOM_METHODS, WEBHOOK_TYPES } from './model.ts';
import { MAX_ATTEMPTS, MAX_SCHEDULE_SECONDS } from './retry.ts';

// HTTP tokens that are also storable field names (http/validate.ts): a `$` first or a dot would
// make the stored headers object unwritable.
const HeaderName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'header names must be HTTP tokens' })
  .refine(isStorableKey, { error: 'header names may not start with $ or contain dots' });
// Header values may not carry line breaks (header injection); templates are checked again at send time.
const HeaderValue = z.string().max(8_192).regex(/^[^\r\n\0]*$/, { error: 'header values may not contain line breaks' });

export const CustomPayloadSchema = z.object({
  enabled: z.boolean(),
  method: z.enum(CUSTOM_METHODS).default('POST'),
  headers: z
    .record(HeaderName, HeaderValue)
    .refine((h) => Object.keys(h).length <= 50, { error: 'at most 50 headers' })
    .default({}),
  /** The exact body string; placeholders are resolved per event. */
  body: z.string().max(256 * 1024).default(''),
});

/** A hook's own retry schedule (issue 19): waits in seconds, at most 10 attempts and 3 days in all. */
const RetryDelaysSeconds = z
  .array(z.number().min(0, { error: 'waits are at least 0 seconds' }).max(MAX_SCHEDULE_SECONDS), { error: 'retryDelaysSeconds must be a list of waits in seconds' })
  .max(MAX_ATTEMPTS - 1, { error: `at most ${MAX_ATTEMPTS} attempts (${MAX_ATTEMPTS - 1} waits)` })
  .refine((d) => d.reduce((a, b) => a + b, 0) <= MAX_SCHEDULE_SECONDS, { error: 'the waits add up to more than 3 days (259200 s)' });

/** Per-hook lane (lanes.ts): attempts in flight at once, and started per second. */
const Concurrency = z.number().int().min(1).max(64, { error: 'concurrency is at most 64' });
const RatePerSecond = z.number().gt(0, { error: 'ratePerSecond must be above 0' }).max(1000);

const Url = z.string({ error: 'url is required and must be a string' }).min(1).max(2_048);
const DataSourceIds = z.array(uuid('dataSourceIds[]')).max(100);

export const WebhookCreateSchema = z.object({
  type: z.enum(WEBHOOK_TYPES),
  url: Url,
  dataSourceIds: DataSourceIds.optional(),
  customPayload: CustomPayloadSchema.optional(),
  standardWebhooks: z.boolean().optional(),
  retryDelaysSeconds: RetryDelaysSeconds.optional(),
  concurrency: Concurrency.nullable().optional(),
  ratePerSecond: RatePerSecond.nullable().optional(),
});
export type WebhookCreateReq = z.infer<typeof WebhookCreateSchema>;

export const WebhookUpdateSchema = z
  .object({
    type: z.enum(WEBHOOK_TYPES),
    url: Url,
    enabled: z.boolean(),
    dataSourceIds: DataSourceIds,
    customPayload: CustomPayloadSchema,
    standardWebhooks: z.boolean(),
    /** null: back to the service's schedule. */
    retryDelaysSeconds: RetryDelaysSeconds.nullable(),
    concurrency: Concurrency.nullable(),
    ratePerSecond: RatePerSecond.nullable(),
  })
  .partial();
export type WebhookUpdateReq = z.infer<typeof WebhookUpdateSchema>;

export const WebhookEnabledSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be a boolean' }),
  /** With enabled: true, resend what failed or was cancelled in the hook's failing window. */
  resendFailed: z.boolean().optional(),
});

export const BotParams = z.object({ botId: uuid('botId') });
export const WebhookParams = BotParams.extend({ webhookId: uuid('webhookId') });
export const DeliveryParams = WebhookParams.extend({ deliveryId: uuid('deliveryId') });

export const DeliveryListQuerySchema = PageQuerySchema;
