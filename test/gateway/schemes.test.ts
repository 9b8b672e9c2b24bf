// Issue 19, "Gateway signature schemes": each scheme is signed here by the provider's own library
// (standardwebhooks, @octokit/webhooks-methods, stripe) or, for the generic hmac form, from its
// documented definition; every scheme takes its second secret (rotation), refuses a wrong secret,
// a tampered byte and (where the scheme signs a time) a stale timestamp with its own code, and its
// deliveries are de-duplicated and run through the rules like the spec's.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { postDelivery } from './support/signing.ts';
import { parseGatewayConfig, GatewayConfigError } from '../../src/gateway/sources.ts';

const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;
const SW = [whsec(), whsec()];
const GH = ['gh-old-secret', 'gh-new-secret'];
const ST = ['whsec_stripe_old', 'whsec_stripe_new'];
const HM = ['hmac-old', 'hmac-new'];

const files = gatewayFiles(
  {
    sources: {
      svix: { scheme: 'standard-webhooks', secrets: SW },
      github: { scheme: 'github', secrets: GH },
      stripe: { scheme: 'stripe', secrets: ST, toleranceSeconds: 600 },
      shop: {
        scheme: 'hmac',
        secrets: HM,
        hmac: { header: 'X-Shop-Signature', algorithm: 'sha512', encoding: 'base64', prefix: 'v=', timestampHeader: 'X-Shop-Time', idPath: 'order.ref', eventHeader: 'X-Shop-Topic' },
      },
      plain: { scheme: 'hmac', secrets: HM, hmac: { header: 'X-Sig', algorithm: 'sha1', idHeader: 'X-Id' } },
    },
  },
  { 'issues.json': { name: 'github-issue-log', sources: ['github'], events: ['issues'], actions: [{ type: 'log', message: "'issue ' & $string(payload.issue.number)" }] } },
);

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('gateway signature schemes', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const stored = async (id: string) => (await adminApi(rt)('get', `/gateway/deliveries/${id}`).expect(200)).body.delivery;

  describe('standard-webhooks', () => {
    const send = (secret: string, body: string, id = `msg_${randomUUID()}`, at = new Date(), tamper = false) => {
      const signature = new Webhook(secret).sign(id, at, body);
      return postDelivery(rt, 'svix', tamper ? body.replace('paid', 'pai\u0064 ') : body, { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature });
    };

    it('accepts either secret, keys de-duplication on webhook-id and routes by the body type', async () => {
      const id = `msg_${randomUUID()}`;
      const body = JSON.stringify({ type: 'invoice.paid', timestamp: new Date().toISOString(), data: { n: 1 } });
      const first = await send(SW[1]!, body, id);
      expect(first.status).toBe(202);
      expect(first.body.deliveryId).toBe(id);
      const again = await send(SW[0]!, body, id);
      expect(again.status).toBe(200);
      expect(again.body.duplicate).toBe(true);
      const d = await stored(first.body.id);
      expect(d).toMatchObject({ event: 'invoice.paid', deliveryId: id, signed: { deliveryId: true, event: true, test: false } });
    });

    it('refuses a wrong secret, a tampered byte and a stale timestamp', async () => {
      const body = JSON.stringify({ type: 'invoice.paid', data: {} });
      expect((await send(whsec(), body)).body.code).toBe('invalid_signature');
      const tampered = await send(SW[0]!, body, undefined, new Date(), true);
      expect([tampered.status, tampered.body.code]).toEqual([401, 'invalid_signature']);
      const stale = await send(SW[0]!, body, undefined, new Date(Date.now() - 600_000));
      expect([stale.status, stale.body.code]).toEqual([401, 'signature_expired']);
      const missing = await postDelivery(rt, 'svix', body, {});
      expect([missing.status, missing.body.code]).toEqual([401, 'invalid_signature']);
    });
  });

  describe('github', () => {
    const send = async (secret: string, body: string, delivery = randomUUID(), sent = body) =>
      postDelivery(rt, 'github', sent, { 'X-Hub-Signature-256': await githubSign(secret, body), 'X-GitHub-Delivery': delivery, 'X-GitHub-Event': 'issues' });

    it('accepts either secret, takes X-GitHub-Delivery and X-GitHub-Event (unsigned) and runs the rules', async () => {
      const delivery = randomUUID();
      const body = JSON.stringify({ action: 'labeled', issue: { number: 42, labels: [{ name: 'urgent' }] } });
      const first = await send(GH[0]!, body, delivery);
      expect(first.status).toBe(202);
      expect((await send(GH[1]!, body, delivery)).body.duplicate).toBe(true);
      const d = await waitFor(async () => {
        const r = await stored(first.body.id);
        return r.rules[0]?.actions[0]?.status === 'succeeded' && r;
      });
      // Identified by the signed bytes; GitHub's unsigned id is kept with the headers.
      expect(d).toMatchObject({ deliveryId: first.body.deliveryId, event: 'issues', signed: { deliveryId: true, event: false, test: false } });
      expect(d.headers['x-github-delivery']).toBe(delivery);
      expect((await send(GH[0]!, body, randomUUID())).body.duplicate).toBe(true);
      expect(d.rules[0].actions[0].spec.message).toBe('issue 42');
    });

    it('refuses a wrong secret and a tampered byte', async () => {
      const body = JSON.stringify({ action: 'opened', issue: { number: 1 } });
      expect((await send('not-the-secret', body)).body.code).toBe('invalid_signature');
      const tampered = await send(GH[0]!, body, randomUUID(), body.replace('1', '2'));
      expect([tampered.status, tampered.body.code]).toEqual([401, 'invalid_signature']);
    });
  });

  describe('stripe', () => {
    const send = (secret: string, body: string, timestamp = nowSeconds(), sent = body) =>
      postDelivery(rt, 'stripe', sent, { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) });
    const event = (type: string, livemode = false) => JSON.stringify({ id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', type, livemode, data: { object: {} } });

    it('accepts either secret, keys on the event id, routes by type and reads livemode as the test flag', async () => {
      const body = event('invoice.payment_failed');
      const first = await send(ST[1]!, body);
      expect(first.status).toBe(202);
      expect(first.body.deliveryId).toBe(JSON.parse(body).id);
      expect((await send(ST[0]!, body)).status).toBe(200);
      expect(await stored(first.body.id)).toMatchObject({ event: 'invoice.payment_failed', test: true, signed: { deliveryId: true, event: true, test: true } });
      const live = await send(ST[0]!, event('charge.succeeded', true));
      expect((await stored(live.body.id)).test).toBe(false);
    });

    it('refuses a wrong secret, a tampered byte and a time outside the source tolerance', async () => {
      const body = event('invoice.paid');
      expect((await send('whsec_wrong', body)).body.code).toBe('invalid_signature');
      const tampered = await send(ST[0]!, body, nowSeconds(), body.replace('invoice.paid', 'invoice.pai_'));
      expect([tampered.status, tampered.body.code]).toEqual([401, 'invalid_signature']);
      const stale = await send(ST[0]!, body, nowSeconds() - 900);
      expect([stale.status, stale.body.code]).toEqual([401, 'signature_expired']);
      // Within this source's 600 s (more than the 300 s default).
      expect((await send(ST[0]!, body, nowSeconds() - 450)).status).toBe(202);
    });
  });

  describe('hmac', () => {
    // Written from the documented definition (docs/GATEWAY.md): prefix + digest of `<t>.<body>`.
    const shop = (secret: string, body: string, t = nowSeconds(), sent = body) =>
      postDelivery(rt, 'shop', sent, {
        'X-Shop-Signature': `v=${createHmac('sha512', secret).update(`${t}.${body}`).digest('base64')}`,
        'X-Shop-Time': String(t),
        'X-Shop-Topic': 'orders.created',
      });

    it('takes the id from a JSONata path (signed) and the event from a header (unsigned), under either secret', async () => {
      const ref = `ord-${randomUUID()}`;
      const body = JSON.stringify({ order: { ref, total: 12 } });
      const first = await shop(HM[1]!, body);
      expect([first.status, first.body.deliveryId]).toEqual([202, ref]);
      expect((await shop(HM[0]!, body)).body.duplicate).toBe(true);
      expect(await stored(first.body.id)).toMatchObject({ event: 'orders.created', signed: { deliveryId: true, event: false, test: false } });
    });

    it('refuses a wrong secret, a tampered byte, a stale time and a time changed after signing', async () => {
      const body = JSON.stringify({ order: { ref: 'x-1' } });
      expect((await shop('wrong', body)).body.code).toBe('invalid_signature');
      expect((await shop(HM[0]!, body, nowSeconds(), body.replace('x-1', 'x-2'))).body.code).toBe('invalid_signature');
      const stale = await shop(HM[0]!, body, nowSeconds() - 3600);
      expect([stale.status, stale.body.code]).toEqual([401, 'signature_expired']);
      const t = nowSeconds() - 3600;
      const moved = await postDelivery(rt, 'shop', body, {
        'X-Shop-Signature': `v=${createHmac('sha512', HM[0]!).update(`${t}.${body}`).digest('base64')}`,
        'X-Shop-Time': String(nowSeconds()),
      });
      expect(moved.body.code).toBe('invalid_signature');
    });

    it('takes a hex sha1 without a time, the id from a header', async () => {
      const body = JSON.stringify({ type: 'ping' });
      const res = await postDelivery(rt, 'plain', body, { 'X-Sig': createHmac('sha1', HM[1]!).update(body).digest('hex'), 'X-Id': 'abc-1' });
      expect(res.status).toBe(202);
      const d = await stored(res.body.id);
      expect(d).toMatchObject({ event: 'ping', signed: { deliveryId: true, event: true } });
      expect(d.headers['x-id']).toBe('abc-1');
      // The id header is unsigned: the same bytes under another id are the same delivery.
      const again = await postDelivery(rt, 'plain', body, { 'X-Sig': createHmac('sha1', HM[1]!).update(body).digest('hex'), 'X-Id': 'abc-2' });
      expect([again.status, again.body.duplicate]).toEqual([200, true]);
    });
  });

  it('lists the sources with their schemes for the admin API and the console, never their secrets', async () => {
    const res = await adminApi(rt)('get', '/gateway/sources').expect(200);
    const byName = Object.fromEntries(res.body.sources.map((s: { name: string }) => [s.name, s]));
    expect(byName.svix).toMatchObject({ scheme: 'standard-webhooks', secrets: 2, toleranceSeconds: 300, hmac: null });
    expect(byName.stripe).toMatchObject({ scheme: 'stripe', toleranceSeconds: 600 });
    expect(byName.shop.hmac).toMatchObject({ header: 'x-shop-signature', algorithm: 'sha512', encoding: 'base64', timestampHeader: 'x-shop-time', idPath: 'order.ref', eventHeader: 'x-shop-topic' });
    for (const secret of [...SW, ...GH, ...ST, ...HM]) expect(res.text).not.toContain(secret);
  });

  it('names the field of a scheme misconfiguration', () => {
    const bad = (source: unknown) => () => parseGatewayConfig({ sources: { s: source } }, {});
    expect(bad({ scheme: 'hmac', secrets: ['x'] })).toThrow(/sources\.s\.hmac/);
    expect(bad({ scheme: 'github', secrets: ['x'], hmac: { header: 'x' } })).toThrow(GatewayConfigError);
    expect(bad({ scheme: 'standard-webhooks', secrets: ['whsec_c2hvcnQ='] })).toThrow(/secrets\.0/);
    expect(bad({ scheme: 'stripe', secrets: ['x'], allowLegacySecretHeader: true })).toThrow(/allowLegacySecretHeader/);
    expect(bad({ scheme: 'paypal', secrets: ['x'] })).toThrow(/scheme/);
    expect(bad({ scheme: 'hmac', secrets: ['x'], hmac: { header: 'x', idPath: 'a.(' } })).toThrow(/idPath/);
  });
});
