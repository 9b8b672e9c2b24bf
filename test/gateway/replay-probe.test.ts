// Nothing lost, nothing run twice (issue 35): for each of the five schemes, a captured delivery is
// sent again as it was, with its timed or id headers removed or changed, and after the tolerance
// window (a driven clock, no sleeping). Every real delivery runs its rule once (one email on a real
// SMTP server); every replay is refused (401/400) or answered as a duplicate (200), never stored.
// Signed by the providers' own libraries where they exist; the relay and hmac forms from their
// documented definitions (docs/GATEWAY.md).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.ts';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { startSmtpServer } from './support/servers.ts';
import { hmacHeader, postDelivery } from './support/signing.ts';

const RELAY = 'relay-probe-secret-0123';
const SW = `whsec_${randomBytes(24).toString('base64')}`;
const GH = 'gh-probe-secret';
const ST = 'whsec_stripe_probe';
const HM = 'hmac-probe-secret';

const probeRule = {
  name: 'probe-mail',
  sources: ['svix', 'github', 'stripe', 'shop'],
  events: ['invoice.paid', 'issues', 'invoice.payment_failed', 'orders.created'],
  actions: [{ type: 'email', to: "'probe@example.com'", subject: "'probe ' & source", text: "'delivery ' & deliveryId" }],
};
const files = gatewayFiles(
  {
    sources: {
      relay: { secrets: [RELAY] },
      svix: { scheme: 'standard-webhooks', secrets: [SW] },
      github: { scheme: 'github', secrets: [GH] },
      stripe: { scheme: 'stripe', secrets: [ST] },
      shop: { scheme: 'hmac', secrets: [HM], hmac: { header: 'X-Shop-Signature', prefix: 'sha256=', timestampHeader: 'X-Shop-Time', idHeader: 'X-Shop-Id', eventHeader: 'X-Shop-Topic' } },
    },
  },
  // The shipped escalation rule, unchanged, and one mail per delivery for the other schemes.
  { 'escalation-email.json': readFileSync('rules/escalation-email.json', 'utf8'), 'probe.json': probeRule },
);
const env: Record<string, string> = { ...files.env, MAIL_FROM: 'Relay <relay@test.local>' };

/** The gateway's clock: real time, moved past the 300 s window for the late replays. */
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
const WINDOW_PASSED_MS = 301_000;
const seconds = () => Math.floor(Date.now() / 1000);

/** X-Relay-Signature from its documented definition: HMAC-SHA256 of `<t>.<id>.<event>.<test>.<body>`. */
function relaySignature(t: number, id: string, event: string, body: string): string {
  return `t=${t},v1=${createHmac('sha256', RELAY).update(`${t}.${id}.${event}.false.`).update(body).digest('hex')}`;
}

type Headers = Record<string, string>;
type Probe = [string, Headers, number[]];
/** After the window a signed time is expired too, so a probe may also be refused for it. */
const lateToo = (probes: Probe[]): Probe[] => probes.map(([what, headers, statuses]) => [what, headers, [...statuses, 401]]);
const without = (headers: Headers, ...names: string[]) => Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));

describe('the gateway under replayed, stripped and altered deliveries', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    env.SMTP_URL = smtp.url;
  });
  afterAll(() => smtp?.close());
  beforeEach(() => {
    offsetMs = 0;
  });
  const rt = useTestRuntime({ env, clock, ...modulesWithGateway() });

  /** Sends each probe; every answer must be a refusal or a duplicate, never a new delivery. */
  async function probe(source: string, body: string, probes: Probe[]) {
    for (const [what, headers, statuses] of probes) {
      const res = await postDelivery(rt, source, body, headers);
      expect(statuses, `${source}: ${what} answered ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      if (res.status === 200) expect(res.body, what).toMatchObject({ success: true, duplicate: true });
      else expect(res.body, what).toMatchObject({ success: false });
    }
  }

  /** One stored delivery for the source, its one action done, and exactly `mails` emails with `subject`. */
  async function ranOnce(source: string, subject: RegExp) {
    const list = (await adminApi(rt)('get', `/gateway/deliveries?source=${source}&limit=100`).expect(200)).body;
    expect(list.pagination.total).toBe(1);
    const done = await waitFor(async () => {
      const d = (await adminApi(rt)('get', `/gateway/deliveries/${list.deliveries[0].id}`).expect(200)).body.delivery;
      return d.rules[0]?.actions[0]?.status === 'succeeded' && d;
    });
    expect(done.rules).toHaveLength(1);
    expect(done.rules[0].actions).toHaveLength(1);
    expect(done.rules[0].actions[0].attempts).toBe(1);
    expect(smtp.mails.filter((m) => subject.test(m.raw.replace(/\r\n /g, ' ')))).toHaveLength(1);
  }

  it('relay (G1): sends the escalation email once, whether the replay keeps, drops or changes X-Relay-Signature, inside or after 300 s', async () => {
    // A custom-payload escalation: its body has no deliveryId, so only the signed header names it.
    const { deliveryId: _dropped, ...payload } = JSON.parse(readFileSync('test/fixtures/gateway/conversation.escalated.json', 'utf8'));
    payload.conversation.id = randomUUID();
    const body = JSON.stringify(payload);
    const id = randomUUID();
    const headers = {
      'X-Service-Signature': hmacHeader(body, RELAY),
      'X-Service-Delivery-Id': id,
      'X-Service-Event': 'conversation.escalated',
      'X-Relay-Signature': relaySignature(seconds(), id, 'conversation.escalated', body),
    };
    const first = await postDelivery(rt, 'relay', body, headers);
    expect([first.status, first.body.deliveryId]).toEqual([202, id]);
    const tampered = [
      ['the same request again', headers, [200]],
      ['X-Relay-Signature dropped', without(headers, 'X-Relay-Signature'), [401]],
      ['X-Relay-Signature and the id dropped', without(headers, 'X-Relay-Signature', 'X-Service-Delivery-Id'), [401]],
      ['a fresh X-Service-Delivery-Id', { ...headers, 'X-Service-Delivery-Id': randomUUID() }, [401]],
      ['a fresh id without X-Relay-Signature', { ...without(headers, 'X-Relay-Signature'), 'X-Service-Delivery-Id': randomUUID() }, [401]],
      ['X-Relay-Signature re-timed without the secret', { ...headers, 'X-Relay-Signature': headers['X-Relay-Signature'].replace(/^t=\d+/, `t=${seconds() + 5}`) }, [401]],
    ] as Probe[];
    await probe('relay', body, tampered);
    offsetMs = WINDOW_PASSED_MS;
    const late = await postDelivery(rt, 'relay', body, headers);
    expect([late.status, late.body.code]).toEqual([401, 'signature_expired']);
    await probe('relay', body, tampered.slice(1));
    offsetMs = 0;
    await ranOnce('relay', new RegExp(`^Subject: Escalation: Help bot conversation ${payload.conversation.id}`, 'm'));
  });

  it('standard-webhooks: a replay is a duplicate, a changed or missing id or time is refused, and so is everything after the window', async () => {
    const body = JSON.stringify({ type: 'invoice.paid', data: { n: randomUUID() } });
    const id = `msg_${randomUUID()}`;
    const at = new Date();
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(SW).sign(id, at, body) };
    expect((await postDelivery(rt, 'svix', body, headers)).status).toBe(202);
    const tampered = [
      ['the same request again', headers, [200]],
      ['a fresh webhook-id', { ...headers, 'webhook-id': `msg_${randomUUID()}` }, [401]],
      ['webhook-id dropped', without(headers, 'webhook-id'), [401]],
      ['webhook-timestamp dropped', without(headers, 'webhook-timestamp'), [401]],
      ['webhook-timestamp moved', { ...headers, 'webhook-timestamp': String(seconds() + 1) }, [401]],
    ] as Probe[];
    await probe('svix', body, tampered);
    offsetMs = WINDOW_PASSED_MS;
    await probe('svix', body, [['the same request after the window', headers, [401]], ...lateToo(tampered.slice(1))]);
    offsetMs = 0;
    await ranOnce('svix', /^Subject: probe svix/m);
  });

  it('github: a replay under the same, a fresh or no X-GitHub-Delivery runs nothing again, at any time', async () => {
    const body = JSON.stringify({ action: 'labeled', issue: { number: 7, id: randomUUID() } });
    const headers = { 'X-Hub-Signature-256': await githubSign(GH, body), 'X-GitHub-Delivery': randomUUID(), 'X-GitHub-Event': 'issues' };
    expect((await postDelivery(rt, 'github', body, headers)).status).toBe(202);
    const tampered = [
      ['the same request again', headers, [200]],
      ['a fresh X-GitHub-Delivery', { ...headers, 'X-GitHub-Delivery': randomUUID() }, [200]],
      ['X-GitHub-Delivery dropped', without(headers, 'X-GitHub-Delivery'), [400]],
      ['X-GitHub-Event changed', { ...headers, 'X-GitHub-Event': 'push' }, [200]],
    ] as Probe[];
    await probe('github', body, tampered);
    offsetMs = WINDOW_PASSED_MS;
    await probe('github', body, tampered);
    offsetMs = 0;
    await ranOnce('github', /^Subject: probe github/m);
  });

  it('stripe: a replay is a duplicate, a changed or missing t= is refused, and so is everything after the window', async () => {
    const body = JSON.stringify({ id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', type: 'invoice.payment_failed', livemode: true, data: { object: {} } });
    const t = seconds();
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: ST, timestamp: t });
    const headers = { 'Stripe-Signature': signature };
    expect((await postDelivery(rt, 'stripe', body, headers)).status).toBe(202);
    const tampered = [
      ['the same request again', headers, [200]],
      ['t= dropped', { 'Stripe-Signature': signature.replace(/^t=\d+,/, '') }, [401]],
      ['t= moved', { 'Stripe-Signature': signature.replace(/^t=\d+/, `t=${t + 1}`) }, [401]],
      ['the signature dropped', {}, [401]],
    ] as Probe[];
    await probe('stripe', body, tampered);
    offsetMs = WINDOW_PASSED_MS;
    await probe('stripe', body, [['the same request after the window', headers, [401]], ...lateToo(tampered.slice(1))]);
    offsetMs = 0;
    await ranOnce('stripe', /^Subject: probe stripe/m);
  });

  it('hmac: a replay under the same or a fresh id header is a duplicate, a changed or missing time is refused, and so is everything after the window', async () => {
    const body = JSON.stringify({ order: { ref: randomUUID(), total: 12 } });
    const t = seconds();
    const headers = {
      'X-Shop-Signature': `sha256=${createHmac('sha256', HM).update(`${t}.${body}`).digest('hex')}`,
      'X-Shop-Time': String(t),
      'X-Shop-Id': randomUUID(),
      'X-Shop-Topic': 'orders.created',
    };
    expect((await postDelivery(rt, 'shop', body, headers)).status).toBe(202);
    const tampered = [
      ['the same request again', headers, [200]],
      ['a fresh id header', { ...headers, 'X-Shop-Id': randomUUID() }, [200]],
      ['the id header dropped', without(headers, 'X-Shop-Id'), [400]],
      ['the time dropped', without(headers, 'X-Shop-Time'), [401]],
      ['the time moved', { ...headers, 'X-Shop-Time': String(t + 1) }, [401]],
    ] as Probe[];
    await probe('shop', body, tampered);
    offsetMs = WINDOW_PASSED_MS;
    await probe('shop', body, [['the same request after the window', headers, [401]], ...lateToo(tampered.slice(1))]);
    offsetMs = 0;
    await ranOnce('shop', /^Subject: probe shop/m);
  });
});
