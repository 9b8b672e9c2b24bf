// Hook configuration: create, read, update, enable, regenerate the secret, delete; and the lookup
// the fan-out uses to find the enabled hooks an event goes to.
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../clock.ts';
import { AppError } from '../http/errors.ts';
import { paginate, type Page, type PageQuery } from '../http/pagination.ts';
import { generateWebhookSecret } from '../security/secrets.ts';
import { blockedHostReason } from '../outbound/addressPolicy.ts';
import { getBot } from '../platform/service.ts';
import { fixedOrigin } from './templates.ts';
import type { StoredEvent } from '../events/model.ts';
import { AttemptModel, AttemptResultModel, DeliveryModel, SCOPED_TYPES, WebhookModel, type Webhook, type WebhookType } from './model.ts';
import type { WebhookCreateReq, WebhookUpdateReq } from './schema.ts';
import { hookLimits } from './fleetLimits.ts';
import { trusted } from '../db/connection.ts';
import { pagesById } from '../db/pagesById.ts';
import { findOwned } from '../db/byId.ts';

const PLACEHOLDER = /\{\{[^}]*\}\}/g;

/**
 * Spec "Delivery behaviour" 6: a full URL with https://. OUTBOUND_ALLOW_PRIVATE (development and
 * tests) also admits http:// and private hosts. Placeholders may fill the path and query only: the
 * scheme, host and port are the operator's, never an event's (docs/WEBHOOKS.md, "Custom payloads").
 * A literal private or loopback host is refused here for early feedback only: names are judged on
 * the address dialled at send time (src/outbound), which is the check that counts.
 */
export function checkTargetUrl(url: string, allowPrivate: boolean): void {
  if (fixedOrigin(url) === null && /^https?:\/\//i.test(url)) {
    throw new AppError('validation_failed', 'url: placeholders may fill the path and query only, never the scheme, host or port');
  }
  const scheme = /^(https?):\/\//i.exec(url)?.[1]?.toLowerCase();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url.replace(PLACEHOLDER, 'placeholder'));
  } catch {
    parsed = null;
  }
  if (!parsed || !scheme || !parsed.hostname) throw new AppError('validation_failed', 'url: must be a full URL including https://');
  if (scheme === 'http' && !allowPrivate) {
    throw new AppError('validation_failed', 'url: must start with https:// (http:// only when OUTBOUND_ALLOW_PRIVATE is on)');
  }
  const blocked = allowPrivate ? null : blockedHostReason(parsed.hostname);
  if (blocked) throw new AppError('validation_failed', `url: ${blocked}; private and loopback targets need OUTBOUND_ALLOW_PRIVATE`);
}

function checkScope(type: WebhookType, dataSourceIds: string[]): void {
  if (dataSourceIds.length && !SCOPED_TYPES.includes(type)) {
    throw new AppError('validation_failed', 'dataSourceIds: a data source scope applies to sync.success and sync.failure hooks only');
  }
}

export async function createWebhook(ctx: AppContext, botId: string, input: WebhookCreateReq): Promise<{ webhook: Webhook; secret: string }> {
  const bot = await getBot(botId);
  checkTargetUrl(input.url, ctx.config.OUTBOUND_ALLOW_PRIVATE);
  const dataSourceIds = [...new Set(input.dataSourceIds ?? [])];
  checkScope(input.type, dataSourceIds);
  const secret = generateWebhookSecret();
  const id = timeOrderedId();
  const doc = await WebhookModel.create({
    _id: id,
    id,
    botId,
    teamId: bot.teamId,
    type: input.type,
    enabled: false, // spec "Webhook": a new hook is created disabled
    url: input.url,
    secret,
    dataSourceIds,
    customPayload: input.customPayload ?? { enabled: false, method: 'POST', headers: {}, body: '' },
    standardWebhooks: input.standardWebhooks ?? false,
    ...(input.retryDelaysSeconds ? { retryDelaysSeconds: input.retryDelaysSeconds } : {}),
    concurrency: input.concurrency ?? null,
    ratePerSecond: input.ratePerSecond ?? null,
  });
  return { webhook: doc.toObject(), secret };
}

export async function listWebhooks(botId: string, page: PageQuery): Promise<Page<Webhook>> {
  await getBot(botId);
  return paginate(WebhookModel, { botId }, page);
}

export async function getWebhook(botId: string, webhookId: string): Promise<Webhook> {
  // By `_id` alone, the bot checked here: `{ _id, botId }` cost FerretDB two index probes for botId
  // on every hook read (a third of the read).
  const hook = await findOwned<Webhook>(WebhookModel, webhookId, { botId });
  if (!hook) throw new AppError('webhook_not_found', 'Webhook not found');
  return hook;
}

export async function updateWebhook(ctx: AppContext, botId: string, webhookId: string, input: WebhookUpdateReq): Promise<Webhook> {
  const current = await getWebhook(botId, webhookId);
  const type = (input.type ?? current.type) as WebhookType;
  if (input.url !== undefined) checkTargetUrl(input.url, ctx.config.OUTBOUND_ALLOW_PRIVATE);
  // Moving a hook to a conversation type drops a scope that no longer applies, unless one is given.
  const dataSourceIds =
    input.dataSourceIds !== undefined ? [...new Set(input.dataSourceIds)] : SCOPED_TYPES.includes(type) ? current.dataSourceIds : [];
  checkScope(type, dataSourceIds);
  const set: Record<string, unknown> = { type, dataSourceIds };
  for (const key of ['url', 'enabled', 'customPayload', 'standardWebhooks', 'concurrency', 'ratePerSecond'] as const) if (input[key] !== undefined) set[key] = input[key];
  // null goes back to the service's schedule; deliveries already created keep theirs.
  const unset = input.retryDelaysSeconds === null ? { retryDelaysSeconds: 1 } : undefined;
  if (input.retryDelaysSeconds) set.retryDelaysSeconds = input.retryDelaysSeconds;
  const hook = await WebhookModel.findOneAndUpdate({ _id: webhookId, botId }, { $set: set, ...(unset ? { $unset: unset } : {}) }, { returnDocument: 'after' }).lean<Webhook>();
  if (!hook) throw new AppError('webhook_not_found', 'Webhook not found');
  return hook;
}

/** Enabling also clears the health record (a fresh failing window; docs/WEBHOOKS.md, "Endpoint health"). */
export async function setWebhookEnabled(botId: string, webhookId: string, enabled: boolean): Promise<Webhook> {
  const set = enabled ? { enabled, failingSince: null, disabledAt: null, disabledReason: null } : { enabled };
  const hook = await WebhookModel.findOneAndUpdate({ _id: webhookId, botId }, { $set: set }, { returnDocument: 'after' }).lean<Webhook>();
  if (!hook) throw new AppError('webhook_not_found', 'Webhook not found');
  return hook;
}

/**
 * Spec "Authentication" 3: the new secret applies at once, also to deliveries already queued or
 * being retried, because attempts are signed at send time with the hook's current secret.
 */
export async function regenerateSecret(botId: string, webhookId: string): Promise<{ webhook: Webhook; secret: string }> {
  const secret = generateWebhookSecret();
  const hook = await WebhookModel.findOneAndUpdate({ _id: webhookId, botId }, { $set: { secret } }, { returnDocument: 'after' }).lean<Webhook>();
  if (!hook) throw new AppError('webhook_not_found', 'Webhook not found');
  return { webhook: hook, secret };
}

/** Deleting a hook also deletes its delivery log; pending retries find no delivery and stop. */
export async function deleteWebhook(botId: string, webhookId: string): Promise<void> {
  const res = await WebhookModel.deleteOne({ _id: webhookId, botId });
  if (res.deletedCount === 0) throw new AppError('webhook_not_found', 'Webhook not found');
  // In pages of its log (a delivery's `_id` is its id): a busy hook has hundreds of thousands of
  // deliveries, too many ids for one `$in` and too long a read for one query (pagesById.ts).
  for await (const page of pagesById<{ _id: string }>(DeliveryModel.collection, { webhookId }, 1000, { _id: 1 })) {
    const ofDeliveries = { deliveryId: trusted({ $in: page.map((d) => d._id) }) };
    await AttemptModel.deleteMany(ofDeliveries);
    await AttemptResultModel.deleteMany(ofDeliveries);
  }
  await DeliveryModel.deleteMany({ webhookId });
  await hookLimits.forget(webhookId);
}

/** The enabled hooks each event goes to (scope included), read in one query for all of them. */
export async function hooksForEvents(events: Array<Pick<StoredEvent, 'type' | 'botId' | 'dataSourceId'>>): Promise<Webhook[][]> {
  const botIds = [...new Set(events.map((e) => e.botId))];
  const types = [...new Set(events.map((e) => e.type))];
  // Values from stored events, not from a caller.
  const hooks = await WebhookModel.find({ botId: trusted({ $in: botIds }), type: trusted({ $in: types }), enabled: true }).sort({ _id: 1 }).lean<Webhook[]>();
  return events.map((event) =>
    hooks.filter(
      (h) =>
        h.botId === event.botId &&
        h.type === event.type &&
        (!h.dataSourceIds.length || (event.dataSourceId != null && h.dataSourceIds.includes(event.dataSourceId))),
    ),
  );
}
