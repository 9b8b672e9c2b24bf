// Test sends (spec "Delivery behaviour" 4): a real request to the saved URL with the saved
// method, headers and body, rendered against a sample payload of the hook's type, even when the
// hook is disabled. Marked X-Service-Test: true; nothing is stored.
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { getBot } from '../platform/service.ts';
import type { OutboundClient, OutboundResponse } from '../outbound/client.ts';
import type { WebhookType } from './model.ts';
import { buildDeliveryRequest, signedRequest, withDeliveryId } from './request.ts';
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
  error: OutboundResponse['error'];
}

export async function sendTest(ctx: Pick<AppContext, 'clock'>, outbound: OutboundClient, botId: string, webhookId: string): Promise<TestSendResult> {
  const hook = await getWebhook(botId, webhookId);
  const bot = await getBot(botId);
  const deliveryId = newId();
  const payload = withDeliveryId(samplePayload(hook.type as WebhookType, bot, ctx.clock.now()), deliveryId);
  const { request, unresolved } = buildDeliveryRequest(hook, payload);
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
