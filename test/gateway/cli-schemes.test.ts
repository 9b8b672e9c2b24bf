// `relay gateway send --scheme …` as a process, against a running gateway with a source of each
// scheme: the gateway answers 202 and stores the delivery as that scheme identifies it, and the
// signature the CLI sent (read back from the stored headers and bytes) passes the provider's own
// verifier: @octokit/webhooks-methods, stripe, standardwebhooks; the generic hmac form is checked
// from its documented definition.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { verify as githubVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { relayCli, useListeningApp, useTestRuntime } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';

const GH = 'cli-github-secret';
const ST = 'whsec_cli_stripe_secret';
const SW = `whsec_${randomBytes(24).toString('base64')}`;
const HM = 'cli-hmac-secret';
const SHOP_HMAC = { header: 'X-Shop-Signature', algorithm: 'sha512', encoding: 'base64', prefix: 'v=', timestampHeader: 'X-Shop-Time', idHeader: 'X-Shop-Id', eventHeader: 'X-Shop-Topic' };

const files = gatewayFiles({
  sources: {
    github: { scheme: 'github', secrets: ['an-older-secret', GH] },
    stripe: { scheme: 'stripe', secrets: [ST] },
    svix: { scheme: 'standard-webhooks', secrets: [SW] },
    shop: { scheme: 'hmac', secrets: [HM], hmac: SHOP_HMAC },
    plain: { scheme: 'hmac', secrets: [HM], hmac: { header: 'X-Sig', algorithm: 'sha1' } },
  },
});

const GITHUB_EVENT = 'test/fixtures/gateway/github.issues.labeled.json';
const STRIPE_EVENT = 'test/fixtures/gateway/stripe.invoice.payment_failed.json';
const RELAY_EVENT = 'test/fixtures/gateway/conversation.started.json';

describe('relay gateway send --scheme', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const server = useListeningApp(rt);
  const cli = relayCli(rt, server);
  const send = async (source: string, ...args: string[]) => {
    const { stdout } = await cli('gateway', 'send', '--url', `${server.baseUrl}/gateway/${source}`, ...args);
    return JSON.parse(stdout);
  };
  const refused = (source: string, ...args: string[]) => cli('gateway', 'send', '--url', `${server.baseUrl}/gateway/${source}`, ...args).catch((err) => err);
  /** The stored delivery with the headers and exact bytes the CLI sent. */
  const stored = async (id: string) => (await adminApi(rt)('get', `/gateway/deliveries/${id}`).expect(200)).body.delivery;

  it('github: X-Hub-Signature-256 over the exact bytes, as @octokit/webhooks-methods verifies it', async () => {
    const delivery = randomUUID();
    const out = await send('github', '--scheme', 'github', '--secret', GH, '--event', GITHUB_EVENT, '--name', 'issues', '--delivery-id', delivery);
    expect(out).toMatchObject({ status: 202, scheme: 'github', deliveryId: delivery });
    const d = await stored(out.response.id);
    expect(d).toMatchObject({ source: 'github', event: 'issues' });
    expect(d.headers['x-github-delivery']).toBe(delivery);
    await expect(githubVerify(GH, d.body, d.headers['x-hub-signature-256'])).resolves.toBe(true);
    expect(d.headers['x-hub-signature']).toBe(`sha1=${createHmac('sha1', GH).update(d.body).digest('hex')}`);
    // GitHub's event is a header only: without --name the CLI says so.
    const noName = await refused('github', '--scheme', 'github', '--secret', GH, '--event', GITHUB_EVENT);
    expect([noName.code, noName.stderr]).toEqual([1, 'relay: --name is required with --scheme github: the X-GitHub-Event, e.g. issues or ping\n']);
  });

  it('stripe: Stripe-Signature t=…,v1=… as stripe.webhooks.constructEvent verifies it; the body gives id, type and livemode', async () => {
    const out = await send('stripe', '--scheme', 'stripe', '--secret', ST, '--event', STRIPE_EVENT);
    expect(out).toMatchObject({ status: 202, scheme: 'stripe', deliveryId: 'evt_1NG8Du2eZvKYlo2CUI79vXWy' });
    const d = await stored(out.response.id);
    expect(d).toMatchObject({ deliveryId: 'evt_1NG8Du2eZvKYlo2CUI79vXWy', event: 'invoice.payment_failed', test: true });
    expect(d.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Stripe.webhooks.constructEvent(d.body, d.headers['stripe-signature'], ST).id).toBe('evt_1NG8Du2eZvKYlo2CUI79vXWy');
    // The file's bytes went out unchanged; a delivery id given is written into the event's `id`.
    expect(d.body).toBe(readFileSync(STRIPE_EVENT, 'utf8'));
    const again = await send('stripe', '--scheme', 'stripe', '--secret', ST, '--event', STRIPE_EVENT, '--delivery-id', 'evt_from_the_cli', '--name', 'invoice.paid');
    expect(again).toMatchObject({ status: 202, deliveryId: 'evt_from_the_cli' });
    const other = await stored(again.response.id);
    expect(other).toMatchObject({ deliveryId: 'evt_from_the_cli', event: 'invoice.paid' });
    expect(Stripe.webhooks.constructEvent(other.body, other.headers['stripe-signature'], ST)).toMatchObject({ id: 'evt_from_the_cli', type: 'invoice.paid' });
  });

  it('standard-webhooks: webhook-id, webhook-timestamp and webhook-signature as the standardwebhooks library verifies them', async () => {
    const out = await send('svix', '--scheme', 'standard-webhooks', '--secret', SW, '--event', RELAY_EVENT, '--name', 'conversation.started');
    expect(out).toMatchObject({ status: 202, scheme: 'standard-webhooks', deliveryId: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });
    const d = await stored(out.response.id);
    expect(d).toMatchObject({ deliveryId: out.deliveryId, event: 'conversation.started' });
    expect(new Webhook(SW).verify(d.body, d.headers)).toMatchObject({ conversation: expect.any(Object) });
    // A wrong secret is refused by the gateway, as by the library.
    const wrong = await refused('svix', '--scheme', 'standard-webhooks', '--secret', `whsec_${randomBytes(24).toString('base64')}`, '--event', RELAY_EVENT);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ status: 401, response: { code: 'invalid_signature' } });
  });

  it('hmac: the source block given as --hmac, with its prefix, encoding, algorithm, signed time and id and event headers', async () => {
    const delivery = `ord-${randomUUID()}`;
    const out = await send('shop', '--scheme', 'hmac', '--hmac', JSON.stringify(SHOP_HMAC), '--secret', HM, '--event', RELAY_EVENT, '--name', 'order.created', '--delivery-id', delivery);
    expect(out).toMatchObject({ status: 202, scheme: 'hmac', deliveryId: delivery });
    const d = await stored(out.response.id);
    expect(d).toMatchObject({ event: 'order.created' });
    expect(d.headers['x-shop-id']).toBe(delivery);
    const t = d.headers['x-shop-time'];
    expect(d.headers['x-shop-signature']).toBe(`v=${createHmac('sha512', HM).update(`${t}.`).update(d.body).digest('base64')}`);

    const plain = await send('plain', '--scheme', 'hmac', '--hmac', '{"header":"X-Sig","algorithm":"sha1"}', '--secret', HM, '--event', RELAY_EVENT);
    expect(plain).toMatchObject({ status: 202, deliveryId: null });
    const p = await stored(plain.response.id);
    expect(p.headers['x-sig']).toBe(createHmac('sha1', HM).update(p.body).digest('hex'));

    const missing = await refused('plain', '--scheme', 'hmac', '--secret', HM, '--event', RELAY_EVENT);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('relay: --hmac is required with --scheme hmac')]);
    const bad = await refused('plain', '--scheme', 'hmac', '--hmac', '{"header":"X-Sig","algorithm":"md5"}', '--secret', HM, '--event', RELAY_EVENT);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/^relay: --hmac\.algorithm: /)]);
  });

  it('refuses a scheme it does not know and a test flag a scheme cannot carry', async () => {
    const unknown = await refused('github', '--scheme', 'gitlab', '--secret', GH, '--event', GITHUB_EVENT);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining("option '--scheme <scheme>' argument 'gitlab' is invalid")]);
    const test = await refused('github', '--scheme', 'github', '--secret', GH, '--event', GITHUB_EVENT, '--name', 'issues', '--test');
    expect([test.code, test.stderr]).toEqual([1, 'relay: --test: the github scheme carries no test flag\n']);
  });
});
