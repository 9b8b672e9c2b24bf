// The request a delivery sends: built once at creation (default JSON payload or the hook's custom
// payload, templated against the event), then signed at send time with the hook's current secret.
import { signBody, signDeliveryFacts, signStandardWebhook } from '../security/signature.ts';
import type { OutboundMethod, OutboundRequest } from '../outbound/client.ts';
import { fixedOrigin, renderCustomRequest } from './templates.ts';
import { checkRequestSize, DELIVERY_LIMITS, UnsendableRequest, type RequestLimits } from './unsendable.ts';
import type { DeliveryRequest, Webhook } from './model.ts';

/** Spec "Events": every body carries a top-level deliveryId equal to the delivery id header. */
export function withDeliveryId(payload: Record<string, unknown>, deliveryId: string): Record<string, unknown> {
  return { ...payload, deliveryId };
}

export interface BuiltRequest {
  request: DeliveryRequest;
  unresolved: string[];
}

/**
 * Custom payload on: its method, headers and exact body string, placeholders resolved (spec
 * "Delivery behaviour" 5). Off: POST of the default JSON payload. The target URL is templated
 * either way, in its path and query only. A GET never carries a body (many servers refuse one);
 * its signature covers "". Throws UnsendableRequest when the request breaks a rule or a limit.
 */
export function buildDeliveryRequest(hook: Pick<Webhook, 'url' | 'customPayload'>, payload: Record<string, unknown>, limits: RequestLimits = DELIVERY_LIMITS): BuiltRequest {
  const built = renderRequest(hook, payload, limits);
  checkOrigin(hook.url, built.request.url);
  checkRequestSize(built.request, limits);
  return built;
}

function renderRequest(hook: Pick<Webhook, 'url' | 'customPayload'>, payload: Record<string, unknown>, limits: RequestLimits): BuiltRequest {
  const custom = hook.customPayload;
  if (custom.enabled) {
    const method = custom.method as OutboundMethod;
    const rendered = renderCustomRequest({ url: hook.url, headers: custom.headers as Record<string, string>, body: method === 'GET' ? null : custom.body }, payload, limits);
    return {
      request: { method, url: rendered.url, headers: rendered.headers, body: rendered.body ?? '' },
      unresolved: rendered.unresolved,
    };
  }
  const rendered = renderCustomRequest({ url: hook.url, headers: {}, body: null }, payload, limits);
  return {
    request: { method: 'POST', url: rendered.url, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) },
    unresolved: rendered.unresolved,
  };
}

/**
 * The scheme, host and port are the template's own text (hooks saved before that rule may have a
 * placeholder there, and are refused here), and the rendered URL still has them.
 */
function checkOrigin(template: string, rendered: string): void {
  const origin = fixedOrigin(template);
  const refused = 'placeholders may fill the URL\'s path and query only, never its scheme, host or port';
  if (origin === null) throw new UnsendableRequest('url_not_allowed', refused);
  // Values are percent-encoded, so this holds by construction; checked all the same.
  const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : null);
  if (!rendered.startsWith(origin) || hostOf(rendered) !== hostOf(origin)) throw new UnsendableRequest('url_not_allowed', refused);
}

const SERVICE_HEADERS = new Set([
  'x-secret-key',
  'x-service-signature',
  'x-service-delivery-id',
  'x-service-event',
  'x-service-test',
  'x-relay-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

export interface SigningInput {
  secret: string;
  deliveryId: string;
  event: string;
  /** X-Service-Test: true on test sends only (spec "Delivery headers"). */
  test?: boolean;
  /** Signing time, for X-Relay-Signature and webhook-timestamp. */
  now: Date;
  /** Also send the Standard Webhooks headers (the hook's `standardWebhooks`). */
  standardWebhooks?: boolean;
}

/**
 * The outbound request with the spec's delivery headers, plus X-Relay-Signature over the delivery
 * id, event and test flag with the body (security/signature.ts), and the Standard Webhooks headers
 * when the hook asks for them; they replace any custom header of the same name.
 */
export function signedRequest(request: DeliveryRequest, signing: SigningInput): OutboundRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (!SERVICE_HEADERS.has(name.toLowerCase())) headers[name] = String(value);
  }
  headers['X-Secret-Key'] = signing.secret;
  headers['X-Service-Signature'] = signBody(request.body, signing.secret);
  headers['X-Service-Delivery-Id'] = signing.deliveryId;
  headers['X-Service-Event'] = signing.event;
  if (signing.test) headers['X-Service-Test'] = 'true';
  headers['X-Relay-Signature'] = signDeliveryFacts({ deliveryId: signing.deliveryId, event: signing.event, test: signing.test === true }, request.body, signing.secret, signing.now);
  if (signing.standardWebhooks) Object.assign(headers, signStandardWebhook(signing.deliveryId, request.body, signing.secret, signing.now));
  const method = request.method as OutboundMethod;
  return { method, url: request.url, headers, ...(method === 'GET' ? {} : { body: request.body }) };
}
