// The gateway as senders use it: one delivery under each of the five schemes, signed by the
// provider's own library where there is one (standardwebhooks, @octokit/webhooks-methods, stripe),
// a duplicate, GitHub's form encoding, each refusal of the intake, then the admin views.
import { createHmac, randomUUID } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { waitFor } from '../../helpers/harness.ts';
import { gatewayFiles } from '../../gateway/support/gatewayFiles.ts';
import type { Recorder } from './recorder.ts';

const RELAY = 'relay-source-secret-0123456789';
const SW = `whsec_${Buffer.from('standard-webhooks-example-key').toString('base64')}`;
const GH = 'github-source-secret';
const ST = 'whsec_stripe_example_secret';
const HM = 'shop-source-secret';

export const walkGatewayFiles = () =>
  gatewayFiles(
    {
      sources: {
        relay: { secrets: [RELAY] },
        svix: { scheme: 'standard-webhooks', secrets: [SW] },
        github: { scheme: 'github', secrets: [GH] },
        stripe: { scheme: 'stripe', secrets: [ST] },
        shop: { scheme: 'hmac', secrets: [HM], hmac: { header: 'X-Shop-Signature', algorithm: 'sha256', idPath: 'order.ref', eventHeader: 'X-Shop-Topic' } },
        small: { secrets: [RELAY], maxBodyBytes: 256 },
      },
    },
    { 'log.json': { name: 'log-everything', actions: [{ type: 'log', message: "source & ': ' & event" }] } },
  );

const KEY = 'post /gateway/{source}';
const A = '/api/admin/gateway';
const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const now = () => Math.floor(Date.now() / 1000);
const hex = (secret: string, ...parts: string[]) => parts.reduce((mac, part) => mac.update(part), createHmac('sha256', secret)).digest('hex');

/** A `relay` delivery as Relay's own webhooks send it: X-Service-Signature and X-Relay-Signature. */
function relayDelivery(event: string, payload: Record<string, unknown>) {
  const deliveryId = randomUUID();
  const text = JSON.stringify({ event, deliveryId, ...payload });
  const t = now();
  return {
    text,
    headers: {
      'X-Service-Signature': `sha256=${hex(RELAY, text)}`,
      'X-Service-Delivery-Id': deliveryId,
      'X-Service-Event': event,
      'X-Relay-Signature': `t=${t},v1=${hex(RELAY, `${t}.${deliveryId}.${event}.false.`, text)}`,
    },
  };
}

export async function walkGateway(r: Recorder, adminAuth: Record<string, string>): Promise<void> {
  const post = (source: string, summary: string, status: number, text: string, headers: Record<string, string>, contentType = JSON_TYPE) =>
    r.call({ key: KEY, url: `/gateway/${source}`, summary, status, raw: { contentType, text }, headers });

  const relay = relayDelivery('conversation.started', { conversationId: randomUUID(), botId: randomUUID(), createdAt: new Date().toISOString() });
  const first = await post('relay', 'relay: a new delivery', 202, relay.text, relay.headers);
  await post('relay', 'relay: the same delivery again', 200, relay.text, relay.headers);

  const svixId = `msg_${randomUUID().replaceAll('-', '')}`;
  const svixBody = JSON.stringify({ type: 'invoice.paid', timestamp: new Date().toISOString(), data: { invoice: 'in_1001', amount: 4250 } });
  const at = new Date();
  await post('svix', 'standard-webhooks: a new delivery', 202, svixBody, {
    'webhook-id': svixId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SW).sign(svixId, at, svixBody),
  });

  const issue = JSON.stringify({ action: 'opened', issue: { number: 7, title: 'Checkout fails on Safari' }, repository: { full_name: 'acme/shop' } });
  const githubHeaders = async (body: string) => ({ 'X-Hub-Signature-256': await githubSign(GH, body), 'X-GitHub-Delivery': randomUUID(), 'X-GitHub-Event': 'issues' });
  await post('github', 'github: a new delivery', 202, issue, await githubHeaders(issue));
  const form = new URLSearchParams({ payload: JSON.stringify({ action: 'closed', issue: { number: 7, title: 'Checkout fails on Safari' } }) }).toString();
  await post('github', 'github: form-encoded (GitHub default)', 202, form, await githubHeaders(form), FORM);

  const invoice = JSON.stringify({ id: `evt_${randomUUID().replaceAll('-', '')}`, object: 'event', type: 'invoice.paid', livemode: false, data: { object: { id: 'in_1001', amount_paid: 4250 } } });
  const stripeAt = now();
  const stripe = await post('stripe', 'stripe: a new delivery', 202, invoice, { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: invoice, secret: ST, timestamp: stripeAt }) });

  const order = JSON.stringify({ order: { ref: `A-${randomUUID().slice(0, 8)}`, status: 'shipped' } });
  await post('shop', 'hmac: a new delivery', 202, order, { 'X-Shop-Signature': hex(HM, order), 'X-Shop-Topic': 'order.shipped' });

  // Each refusal of the intake.
  await post('nowhere', 'No such source', 404, relay.text, relay.headers);
  await post('relay', 'Not JSON', 415, 'event=order.paid', relay.headers, 'text/plain');
  await post('small', 'Larger than the source takes', 413, JSON.stringify({ event: 'bulk', rows: 'x'.repeat(300) }), relay.headers);
  await post('relay', 'A signature that does not match', 401, relay.text, { ...relay.headers, 'X-Service-Signature': `sha256=${hex('another-secret', relay.text)}` });
  const stale = stripeAt - 3600;
  await post('stripe', 'A signed time too old', 401, invoice, { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: invoice, secret: ST, timestamp: stale }) });
  const { 'X-GitHub-Delivery': _omitted, ...noDelivery } = await githubHeaders(issue);
  await post('github', 'No X-GitHub-Delivery', 400, issue, noDelivery);

  // The admin views, once every delivery has been through the rules.
  const admin = (method: 'get' | 'post', path: string, url: string, rest: { summary: string; status: number; query?: Record<string, string> }) =>
    r.call({ ...rest, key: `${method} ${A}${path}`, url: `${A}${url}`, auth: adminAuth });
  await waitFor(async () => {
    type Listed = { processedAt: string | null; rules: Array<{ actions: Array<{ status: string }> }> };
    const list = (await r.send({ key: `get ${A}/deliveries`, url: `${A}/deliveries`, query: { limit: '100' }, auth: adminAuth })).body.deliveries as Listed[];
    const settled = (d: Listed) => d.processedAt !== null && d.rules.length > 0 && d.rules.every((rule) => rule.actions.every((a) => a.status === 'succeeded'));
    return list.length === 6 && list.every(settled);
  });
  await admin('get', '/deliveries', '/deliveries', { summary: 'A page of deliveries', status: 200, query: { limit: '3' } });
  await admin('get', '/deliveries', '/deliveries', { summary: "One source's deliveries", status: 200, query: { source: 'stripe', limit: '10' } });
  await admin('get', '/deliveries/{id}', `/deliveries/${stripe.id}`, { summary: 'A delivery with its body and outcomes', status: 200 });
  await admin('post', '/deliveries/{id}/replay', `/deliveries/${first.id}/replay`, { summary: 'The rules run again', status: 202 });
  await admin('get', '/sources', '/sources', { summary: 'The configured sources', status: 200 });
  await admin('get', '/rules', '/rules', { summary: 'The loaded rules', status: 200 });
  await admin('post', '/reload', '/reload', { summary: 'Reloaded', status: 200 });
}
