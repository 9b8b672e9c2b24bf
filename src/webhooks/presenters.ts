// Admin-facing shapes of hooks and deliveries. The hook secret is only ever returned by create and
// regenerate (routes add it explicitly), never by these.
import type { DeliveryAttempt, Webhook } from './model.ts';
import type { DeliveryWithAttempts } from './deliveries.ts';

export const presentWebhook = (h: Webhook) => ({
  id: h.id,
  botId: h.botId,
  type: h.type,
  enabled: h.enabled,
  url: h.url,
  dataSourceIds: h.dataSourceIds,
  customPayload: { enabled: h.customPayload.enabled, method: h.customPayload.method, headers: h.customPayload.headers, body: h.customPayload.body },
  standardWebhooks: h.standardWebhooks,
  /** null: the service's schedule (the spec's 30 s, 1 min, 2 min, 4 min). */
  retryDelaysSeconds: h.retryDelaysSeconds ?? null,
  /** null: WEBHOOK_HOOK_CONCURRENCY. */
  concurrency: h.concurrency ?? null,
  ratePerSecond: h.ratePerSecond ?? null,
  /** Endpoint health: failing since (null: healthy), and why Relay disabled the hook, if it did. */
  failingSince: h.failingSince ?? null,
  disabledAt: h.disabledAt ?? null,
  disabledReason: h.disabledReason ?? null,
  createdAt: h.createdAt,
  updatedAt: h.updatedAt,
});

/**
 * A time as the response shows it (what JSON.stringify would write for the Date). Done here for the
 * log's five times a row: a Date sends JSON.stringify through its toJSON, which cost a page of 100
 * more than the formatting itself.
 */
const iso = (at: Date | string | null | undefined): string | null => (at instanceof Date ? at.toISOString() : (at ?? null));

export const presentAttempt = (a: DeliveryAttempt) => ({
  number: a.number,
  status: a.status,
  startedAt: iso(a.startedAt),
  finishedAt: iso(a.finishedAt),
  httpStatus: a.httpStatus ?? null,
  durationMs: a.durationMs ?? null,
  error: a.error ?? null,
  responseBody: a.responseBody ?? null,
  responseTruncated: a.responseTruncated ?? false,
});

export const presentDelivery = (d: DeliveryWithAttempts) => ({
  /** The deliveryId (body field and X-Service-Delivery-Id). */
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  request: { method: d.request.method, url: d.request.url, headers: d.request.headers, body: d.request.body },
  unresolved: d.unresolved,
  attemptCount: d.attemptCount,
  nextAttemptAt: iso(d.nextAttemptAt),
  cancelReason: d.cancelReason ?? null,
  /** Why it failed before any attempt (docs/WEBHOOKS.md, "Limits"); null for every delivery that was attempted. */
  error: d.error?.code ? { code: d.error.code, message: d.error.message ?? '' } : null,
  /** A test send (POST …/test): one attempt, never retried or resent. */
  test: d.test === true,
  attempts: d.attempts.map(presentAttempt),
  createdAt: iso(d.createdAt),
  finishedAt: iso(d.finishedAt),
});
