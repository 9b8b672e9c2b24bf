// Issue 19, outgoing webhooks: per-hook Standard Webhooks headers (off by default, verified with
// the standardwebhooks library over the raw bytes) and per-hook retry schedules (validated: at
// most 10 attempts and 3 days; a delivery keeps the schedule its hook had when it was created).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { listDeliveries } from '../../src/webhooks/deliveries.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

describe('per-hook delivery options', () => {
  const { rt } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10] });
  let sink: Sink;
  let tenant: Tenant;
  const api = () => adminApi(rt);
  beforeAll(async () => {
    sink = await startSink((req) => ({ status: req.path.startsWith('/fail') ? 500 : 200 }));
    tenant = await createTenant({ bot: 'Options bot' });
  });
  afterAll(() => sink?.close());

  async function hook(path: string, extra: Record<string, unknown> = {}) {
    const res = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}${path}`, ...extra });
    expect(res.status).toBe(201);
    await api()('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true }).expect(200);
    return { id: res.body.webhook.id as string, secret: res.body.secret as string, webhook: res.body.webhook };
  }
  const at = (path: string) => sink.requests.filter((r) => r.path === path);
  const emit = () => {
    const conversation = { id: crypto.randomUUID(), botId: tenant.botId, botName: 'Options bot', channelType: 'api', initialMessage: 'Hi', createdAt: new Date().toISOString() };
    return rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', conversationId: conversation.id, payload: { event: 'conversation.started', conversation } });
  };

  it('sends the Standard Webhooks headers only when the hook asks, verifiable with the standardwebhooks library', async () => {
    const plain = await hook('/plain');
    const sw = await hook('/sw', { standardWebhooks: true });
    expect(plain.webhook.standardWebhooks).toBe(false);
    expect(sw.webhook.standardWebhooks).toBe(true);
    await emit();
    const [req] = await waitFor(() => at('/sw').length === 1 && at('/plain').length === 1 && at('/sw'));
    expect(at('/plain')[0]!.headers['webhook-signature']).toBeUndefined();
    const headers = { 'webhook-id': String(req!.headers['webhook-id']), 'webhook-timestamp': String(req!.headers['webhook-timestamp']), 'webhook-signature': String(req!.headers['webhook-signature']) };
    const raw = req!.raw.toString('utf8');
    // The library checks the signature and the timestamp; the id is the spec's delivery id.
    expect(new Webhook(sw.secret).verify(raw, headers)).toMatchObject({ event: 'conversation.started' });
    expect(headers['webhook-id']).toBe(req!.headers['x-service-delivery-id']);
    expect(req!.headers['x-service-signature']).toMatch(/^sha256=/);
    expect(() => new Webhook(sw.secret).verify(raw.replace('Hi', 'Ho'), headers)).toThrow();

    // Test sends carry them too; the secret is standard base64, which the library decodes.
    await api()('post', `/bots/${tenant.botId}/webhooks/${sw.id}/test`).expect(200);
    const test = at('/sw').at(-1)!;
    expect(test.headers['x-service-test']).toBe('true');
    expect(() => new Webhook(sw.secret).verify(test.raw.toString('utf8'), test.headers as Record<string, string>)).not.toThrow();
    expect(sw.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it('retries on the hook\'s own schedule, and the service schedule without one', async () => {
    const own = await hook('/fail-own', { retryDelaysSeconds: [0.01, 0.01] });
    const service = await hook('/fail-default');
    expect(own.webhook.retryDelaysSeconds).toEqual([0.01, 0.01]);
    expect(service.webhook.retryDelaysSeconds).toBeNull();
    await emit();
    const done = async (id: string) => {
      const [d] = (await listDeliveries(tenant.botId, id, { limit: 10 })).items;
      return d && d.status === 'failed' && d;
    };
    const ownDelivery = await waitFor(() => done(own.id));
    const serviceDelivery = await waitFor(() => done(service.id));
    expect(ownDelivery.attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed']);
    expect(serviceDelivery.attempts).toHaveLength(5);
    expect(at('/fail-own')).toHaveLength(3);

    // A resend runs the delivery's own schedule again: three more attempts.
    await api()('post', `/bots/${tenant.botId}/webhooks/${own.id}/deliveries/${ownDelivery.id}/resend`).expect(202);
    await waitFor(async () => (await done(own.id)) && at('/fail-own').length === 6);
    const [again] = (await listDeliveries(tenant.botId, own.id, { limit: 10 })).items;
    expect(again!.attempts).toHaveLength(6);
  });

  it('resends in the hook\'s lane as it is now: set to concurrency 1 after its deliveries were sent, it holds one resend in flight while its endpoint hangs', async () => {
    const held = await hook('/fail-held', { retryDelaysSeconds: [] });
    const other = await hook('/fail-other', { retryDelaysSeconds: [] });
    await emit();
    await emit();
    const failed = async (id: string) => {
      const items = (await listDeliveries(tenant.botId, id, { limit: 10 })).items;
      return items.length === 2 && items.every((d) => d.status === 'failed' && d.settled === 'failed') && items;
    };
    const heldDeliveries = await waitFor(() => failed(held.id));
    const [otherDelivery] = await waitFor(() => failed(other.id));
    const before = at('/fail-held').length;
    await api()('patch', `/bots/${tenant.botId}/webhooks/${held.id}`, { concurrency: 1 }).expect(200);
    // From now on the held hook's endpoint never answers; the other one still does.
    const failing = (req: { path: string }) => ({ status: req.path.startsWith('/fail') ? 500 : 200 });
    sink.reply((req) => (req.path === '/fail-held' ? 'hang' : failing(req)));
    for (const d of heldDeliveries) await api()('post', `/bots/${tenant.botId}/webhooks/${held.id}/deliveries/${d.id}/resend`).expect(202);
    await api()('post', `/bots/${tenant.botId}/webhooks/${other.id}/deliveries/${otherDelivery!.id}/resend`).expect(202);
    // The other hook's resend was sent after both of the held hook's were queued, so the dispatcher
    // had its chance to start the second held one: its lane kept it back.
    await waitFor(() => at('/fail-other').length === 2 && at('/fail-held').length === before + 1);
    expect(at('/fail-held')).toHaveLength(before + 1);
    sink.reply(failing);
  });

  it('validates a schedule: at most 10 attempts and 3 days in all; null goes back to the service schedule', async () => {
    const base = { type: 'conversation.started', url: `${sink.url}/x` };
    const create = (retryDelaysSeconds: unknown) => api()('post', `/bots/${tenant.botId}/webhooks`, { ...base, retryDelaysSeconds });
    expect((await create(Array(9).fill(60))).status).toBe(201);
    for (const bad of [Array(10).fill(60), [259_200, 1], [-1], ['30'], 'fast']) {
      const res = await create(bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'validation_failed' });
    }
    expect((await create([])).body.webhook.retryDelaysSeconds).toEqual([]);
    const { id } = await hook('/y', { retryDelaysSeconds: [1, 2] });
    const reset = await api()('patch', `/bots/${tenant.botId}/webhooks/${id}`, { retryDelaysSeconds: null }).expect(200);
    expect(reset.body.webhook.retryDelaysSeconds).toBeNull();
    const set = await api()('patch', `/bots/${tenant.botId}/webhooks/${id}`, { retryDelaysSeconds: [5], standardWebhooks: true }).expect(200);
    expect(set.body.webhook).toMatchObject({ retryDelaysSeconds: [5], standardWebhooks: true });
  });
});
