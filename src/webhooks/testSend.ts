// Test sends (spec "Delivery behaviour" 4): a real request to the saved URL with the saved
// method, headers and body, rendered against a sample payload of the hook's type, even when the
// hook is disabled. Marked X-Service-Test: true; nothing is stored. A request over a limit is not
// sent; the answer carries its reason.
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { getBot } from '../platform/service.ts';
import type { OutboundClient, OutboundResponse } from '../outbound/client.ts';
import type { WebhookType } from './model.ts';
import { buildDeliveryRequest, signedRequest, withDeliveryId, type BuiltRequest } from './request.ts';
import { UnsendableRequest, type UnsendableReason } from './unsendable.ts';
import { samplePayload } from './samples.ts';
import { getWebhook } from './service.ts';

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

export async function sendTest(ctx: Pick<AppContext, 'clock'>, outbound: OutboundClient, botId: string, webhookId: string): Promise<TestSendResult> {
  const hook = await getWebhook(botId, webhookId);
  const bot = await getBot(botId);
  const deliveryId = newId();
  const payload = withDeliveryId(samplePayload(hook.type as WebhookType, bot, ctx.clock.now()), deliveryId);
  let built: BuiltRequest;
  try {
    built = buildDeliveryRequest(hook, payload);
  } catch (err) {
    // Sent nowhere: the answer says why, as a live delivery's failed record would.
    if (!(err instanceof UnsendableRequest)) throw err;
    const method = hook.customPayload?.enabled ? (hook.customPayload.method ?? 'POST') : 'POST';
    return { deliveryId, request: { method, url: hook.url }, status: null, body: '', bodyTruncated: false, durationMs: 0, unresolved: [], error: { code: err.reason, message: err.message } };
  }
  const { request, unresolved } = built;
  const res = await outbound.send(signedRequest(request, { secret: hook.secret, deliveryId, event: hook.type, test: true, now: ctx.clock.now(), standardWebhooks: hook.standardWebhooks ?? false }));
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
