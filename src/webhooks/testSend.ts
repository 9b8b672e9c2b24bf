// Test sends (spec "Delivery behaviour" 4): a real request to the saved URL with the saved
// method, headers and body, rendered against a sample payload of the hook's type, even when the
// hook is disabled. Marked X-Service-Test: true. Logged in the hook's delivery log as a delivery
// marked `test` with its one attempt (never retried or resent, and no part of the hook's health),
// and counted in relay_webhook_deliveries_total with test="true". A request over a limit is not
// sent; the answer and the logged record carry its reason.
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../clock.ts';
import { getBot } from '../platform/service.ts';
import type { OutboundClient, OutboundResponse } from '../outbound/client.ts';
import { attemptKey, DeliveryModel, type WebhookType } from './model.ts';
import { insertResults } from './attempts.ts';
import { unsendableDocument } from './fanout.ts';
import { buildDeliveryRequest, signedRequest, withDeliveryId, type BuiltRequest } from './request.ts';
import { UnsendableRequest, type UnsendableReason } from './unsendable.ts';
import { samplePayload } from './samples.ts';
import { getWebhook } from './service.ts';
import { deliveries as deliveriesMetric } from '../observability/metrics.ts';

export interface TestSendResult {
  deliveryId: string;
  request: { method: string; url: string };
  status: number | null;
  body: string;
  bodyTruncated: boolean;
  durationMs: number;
  unresolved: string[];
  /** The outbound error, or why the request was never sent (a reason of unsendable.ts). */
  error: OutboundResponse['error'] | { code: UnsendableReason; message: string };
}

/** A test send's own event id: it is no event, and must not take a live event's (eventId, hook) slot. */
const testEventId = (deliveryId: string) => `test:${deliveryId}`;

export async function sendTest(ctx: Pick<AppContext, 'clock'>, outbound: OutboundClient, botId: string, webhookId: string): Promise<TestSendResult> {
  const hook = await getWebhook(botId, webhookId);
  const bot = await getBot(botId);
  // Time-ordered like a live delivery's id: the log lists by `_id`, so a random one would put the
  // test send anywhere among the hook's deliveries.
  const deliveryId = timeOrderedId();
  const payload = withDeliveryId(samplePayload(hook.type as WebhookType, bot, ctx.clock.now()), deliveryId);
  let built: BuiltRequest;
  try {
    built = buildDeliveryRequest(hook, payload);
  } catch (err) {
    // Sent nowhere: logged and answered with why, as a live delivery's failed record would be.
    if (!(err instanceof UnsendableRequest)) throw err;
    const error = { code: err.reason, message: err.message };
    const doc = unsendableDocument({ id: deliveryId, event: { id: testEventId(deliveryId), botId, type: hook.type }, webhookId: hook.id, url: hook.url, now: ctx.clock.now() }, error);
    await DeliveryModel.create({ ...doc, event: hook.type, test: true });
    const method = hook.customPayload.enabled ? hook.customPayload.method : 'POST';
    return { deliveryId, request: { method, url: hook.url }, status: null, body: '', bodyTruncated: false, durationMs: 0, unresolved: [], error };
  }
  const { request, unresolved } = built;
  const startedAt = ctx.clock.now();
  const res = await outbound.send(signedRequest(request, { secret: hook.secret, deliveryId, event: hook.type, test: true, now: startedAt, standardWebhooks: hook.standardWebhooks }));
  const finishedAt = ctx.clock.now();
  deliveriesMetric.inc({ outcome: res.ok ? 'succeeded' : 'failed', attempt: '1', test: 'true' });
  // The row first, then its result: a result never stands without its delivery.
  await DeliveryModel.create({
    _id: deliveryId,
    id: deliveryId,
    eventId: testEventId(deliveryId),
    webhookId: hook.id,
    botId,
    event: hook.type,
    request,
    unresolved,
    status: res.ok ? 'delivered' : 'failed',
    attemptCount: 1,
    attemptLimit: 1,
    firstClaim: { startedAt, leaseUntil: finishedAt },
    createdAt: startedAt,
    finishedAt,
    test: true,
  });
  await insertResults([
    {
      _id: attemptKey(deliveryId, 1),
      deliveryId,
      webhookId: hook.id,
      number: 1,
      status: res.ok ? 'succeeded' : 'failed',
      finishedAt,
      httpStatus: res.status,
      durationMs: res.durationMs,
      error: res.error,
      responseBody: res.body,
      responseTruncated: res.bodyTruncated,
      retryAt: null,
    },
  ]);
  return {
    deliveryId,
    request: { method: request.method, url: request.url },
    status: res.status,
    body: res.body,
    bodyTruncated: res.bodyTruncated,
    durationMs: res.durationMs,
    unresolved,
    error: res.error,
  };
}
