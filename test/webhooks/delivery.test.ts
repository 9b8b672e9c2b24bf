// Deliveries end to end: events emitted on the bus reach a real local HTTP sink, signed, with every
// header of the spec, retried on the injected schedule with the same id and bytes, and logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '@octokit/webhooks-methods';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { registry } from '../../src/observability/metrics.ts';
import { regenerateSecret } from '../../src/webhooks/service.ts';
import { DeliveryModel } from '../../src/webhooks/model.ts';
import { getDelivery, listDeliveries } from '../../src/webhooks/deliveries.ts';
import type { EventInput } from '../../src/events/service.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

const DS1 = '11111111-1111-4111-8111-111111111111';
const DS2 = '22222222-2222-4222-8222-222222222222';
// Long enough that no answering sink is cut off on a loaded machine (at 400 ms the first test's
// attempt timed out and was retried under load 20-30), short enough for the timeout test to wait.
const TIMEOUT_MS = 2_000;
const DEFAULT_TIMEOUT_MS = 10_000;

describe('webhook deliveries', () => {
  const { rt } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10] }, { env: { OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) } });
  let sink: Sink;
  let tenant: Tenant;
  const api = () => adminApi(rt);
  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant({ bot: 'Support bot' });
  });
  afterAll(() => sink?.close());

  /** Creates an enabled hook whose requests land on the sink under `path`. */
  async function hook(type: string, path: string, extra: Record<string, unknown> = {}, t = tenant) {
    const res = await api()('post', `/bots/${t.botId}/webhooks`, { type, url: `${sink.url}${path}`, ...extra });
    expect(res.status).toBe(201);
    await api()('put', `/bots/${t.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true });
    return { id: res.body.webhook.id as string, secret: res.body.secret as string };
  }
  const at = (path: string) => sink.requests.filter((r) => r.path.startsWith(path));
  const emit = (input: Partial<EventInput> & Pick<EventInput, 'type' | 'payload'>, t = tenant) =>
    rt.runtime.ctx.events.emit({ teamId: t.teamId, botId: t.botId, ...input });
  const deliveriesOf = async (webhookId: string) => (await listDeliveries(tenant.botId, webhookId, { limit: 100 })).items;
  const finished = async (webhookId: string, count = 1) => {
    const list = await deliveriesOf(webhookId);
    return list.length >= count && list.every((d) => d.status !== 'pending') ? list : null;
  };
  const startedPayload = () => ({
    event: 'conversation.started',
    timestamp: new Date().toISOString(),
    conversation: { id: crypto.randomUUID(), botId: tenant.botId, botName: 'Support bot', channelType: 'api', initialMessage: 'Hi', createdAt: new Date().toISOString() },
  });

  it('sends a signed POST with every delivery header, verifiable by a third-party verifier over the raw bytes', async () => {
    const { id, secret } = await hook('conversation.started', '/signed');
    const payload = startedPayload();
    await emit({ type: 'conversation.started', conversationId: payload.conversation.id, payload });
    const [req] = await waitFor(() => at('/signed').length === 1 && at('/signed'));
    const raw = req!.raw.toString('utf8');
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-secret-key']).toBe(secret);
    expect(req!.headers['x-service-event']).toBe('conversation.started');
    expect(req!.headers['x-service-test']).toBeUndefined();
    expect(await verify(secret, raw, String(req!.headers['x-service-signature']))).toBe(true);
    expect(await verify('whsec_wrong', raw, String(req!.headers['x-service-signature']))).toBe(false);
    const body = JSON.parse(raw);
    expect(body).toEqual({ ...payload, deliveryId: req!.headers['x-service-delivery-id'] });
    expect(body.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    const [delivery] = await waitFor(() => finished(id));
    expect(delivery).toMatchObject({ id: body.deliveryId, status: 'delivered', attemptCount: 1 });
    expect(delivery!.attempts[0]).toMatchObject({ number: 1, status: 'succeeded', httpStatus: 200, responseBody: 'ok', error: null });
  });

  it('sends sync.failure events under that name, with the spec payload', async () => {
    const { secret } = await hook('sync.failure', '/sync-failure');
    const payload = { success: false, reason: 'Row 3 could not be parsed', bot: 'Support bot', dataSource: 'FAQ' };
    await emit({ type: 'sync.failure', dataSourceId: DS1, payload });
    const [req] = await waitFor(() => at('/sync-failure').length === 1 && at('/sync-failure'));
    expect(req!.headers['x-service-event']).toBe('sync.failure');
    expect(JSON.parse(req!.raw.toString())).toEqual({ ...payload, deliveryId: req!.headers['x-service-delivery-id'] });
    expect(await verify(secret, req!.raw.toString(), String(req!.headers['x-service-signature']))).toBe(true);
  });

  it('creates nothing new when the sweeper dispatches the same event again', async () => {
    const { id } = await hook('conversation.started', '/redispatch');
    const event = await emit({ type: 'conversation.started', payload: startedPayload() });
    await waitFor(() => finished(id));
    expect(await rt.runtime.ctx.events.dispatch(event)).toBe(true);
    expect(await rt.runtime.ctx.events.dispatch(event)).toBe(true);
    expect(await deliveriesOf(id)).toHaveLength(1);
    expect(at('/redispatch')).toHaveLength(1);
  });

  it('retries with the same deliveryId and identical bytes until the sink answers 2xx (5 attempts)', async () => {
    const { id } = await hook('sync.success', '/flaky');
    sink.reply((req) => (req.path.startsWith('/flaky') && at('/flaky').length <= 4 ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
    await emit({ type: 'sync.success', dataSourceId: DS1, payload: { success: true, results: { totalTokens: 1 }, bot: 'Support bot', dataSource: 'FAQ' } });
    const [delivery] = await waitFor(() => finished(id));
    sink.reply(() => ({ status: 200, body: 'ok' }));
    const got = at('/flaky');
    expect(got).toHaveLength(5);
    expect(new Set(got.map((r) => r.headers['x-service-delivery-id']))).toEqual(new Set([delivery!.id]));
    expect(new Set(got.map((r) => r.raw.toString('hex'))).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['x-service-signature'])).size).toBe(1);
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts.map((a) => [a.number, a.status, a.httpStatus])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'failed', 500],
      [5, 'succeeded', 200],
    ]);
    expect(delivery!.attempts[0]).toMatchObject({ responseBody: 'down', error: { code: 'http_status' } });
  });

  it('marks a delivery failed after 5 failed attempts and sends no sixth', async () => {
    const { id } = await hook('sync.success', '/always-down');
    sink.reply((req) => (req.path.startsWith('/always-down') ? { status: 503 } : { status: 200 }));
    await emit({ type: 'sync.success', dataSourceId: DS1, payload: { success: true } });
    const [delivery] = await waitFor(() => finished(id));
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(at('/always-down')).toHaveLength(5);
    sink.reply(() => ({ status: 200, body: 'ok' }));
  });

  it('records a redirect as a failed attempt and never follows it', async () => {
    const { id } = await hook('conversation.claimed', '/redirect');
    sink.reply((req) => (req.path.startsWith('/redirect') ? { status: 302, headers: { location: `${sink.url}/redirect-target` } } : { status: 200 }));
    await emit({ type: 'conversation.claimed', payload: { event: 'conversation.claimed', timestamp: new Date().toISOString(), conversation: {} } });
    const [delivery] = await waitFor(() => finished(id));
    sink.reply(() => ({ status: 200, body: 'ok' }));
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts[0]).toMatchObject({ status: 'failed', httpStatus: 302, error: { code: 'redirect' } });
    expect(at('/redirect-target')).toHaveLength(0);
  });

  it('fails an attempt at the total timeout when the sink never answers', async () => {
    const { id } = await hook('conversation.released', '/hang');
    sink.reply((req) => (req.path.startsWith('/hang') ? 'hang' : { status: 200 }));
    await emit({ type: 'conversation.released', payload: { event: 'conversation.released' } });
    const delivery = await waitFor(async () => (await deliveriesOf(id)).find((d) => d.attempts?.[0]?.status === 'failed'));
    sink.reply(() => ({ status: 200, body: 'ok' }));
    const first = delivery.attempts[0]!;
    expect(first.error).toMatchObject({ code: 'timeout' });
    expect(first.httpStatus).toBeNull();
    expect(first.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    // Cut by the configured timeout, not the default one (a late timer on a loaded machine is fine).
    expect(first.durationMs).toBeLessThan(DEFAULT_TIMEOUT_MS);
  });

  it('sends sync events only to hooks whose scope contains the data source', async () => {
    const scoped = await hook('sync.success', '/scoped', { dataSourceIds: [DS1] });
    const everyone = await hook('sync.success', '/unscoped');
    await emit({ type: 'sync.success', dataSourceId: DS2, payload: { success: true, dataSource: 'two' } });
    await emit({ type: 'sync.success', dataSourceId: DS1, payload: { success: true, dataSource: 'one' } });
    await waitFor(() => finished(everyone.id, 2));
    await waitFor(() => finished(scoped.id, 1));
    expect((await deliveriesOf(scoped.id)).map((d) => JSON.parse(d.request.body).dataSource)).toEqual(['one']);
    expect(at('/scoped').map((r) => JSON.parse(r.raw.toString()).dataSource)).toEqual(['one']);
  });

  it("sends nothing for a disabled hook or another bot's event", async () => {
    const res = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.escalated', url: `${sink.url}/disabled` });
    const otherTenant = await createTenant();
    await emit({ type: 'conversation.escalated', payload: { event: 'conversation.escalated' } }, otherTenant);
    const event = await emit({ type: 'conversation.escalated', payload: { event: 'conversation.escalated' } });
    expect(await deliveriesOf(res.body.webhook.id)).toHaveLength(0);
    const { UndispatchedEventModel } = await import('../../src/events/model.ts');
    await rt.runtime.ctx.events.flush();
    // Dispatched (to no hook): its record of unfinished dispatch is gone.
    expect(await UndispatchedEventModel.findById(event.id).lean()).toBeNull();
    expect(await rt.runtime.ctx.events.redispatchStale(-60_000)).toBe(0);
    expect(at('/disabled')).toHaveLength(0);
  });

  it('cancels the remaining attempts when the hook is disabled after the event', async () => {
    const { id } = await hook('conversation.escalated', '/disable-midway');
    sink.reply(async (req) => {
      if (!req.path.startsWith('/disable-midway')) return { status: 200 };
      await api()('put', `/bots/${tenant.botId}/webhooks/${id}/enabled`, { enabled: false });
      return { status: 500 };
    });
    await emit({ type: 'conversation.escalated', payload: { event: 'conversation.escalated' } });
    const [delivery] = await waitFor(() => finished(id));
    sink.reply(() => ({ status: 200, body: 'ok' }));
    expect(delivery).toMatchObject({ status: 'cancelled', cancelReason: 'webhook_disabled', attemptCount: 1 });
    expect(at('/disable-midway')).toHaveLength(1);
  });

  it('signs retries with the current secret after a regeneration', async () => {
    const { id, secret: oldSecret } = await hook('conversation.claimed', '/rotate');
    let newSecret = '';
    sink.reply(async (req) => {
      if (!req.path.startsWith('/rotate')) return { status: 200 };
      if (at('/rotate').length > 1) return { status: 200 };
      newSecret = (await regenerateSecret(tenant.botId, id)).secret;
      return { status: 500 };
    });
    await emit({ type: 'conversation.claimed', payload: { event: 'conversation.claimed' } });
    await waitFor(() => finished(id));
    sink.reply(() => ({ status: 200, body: 'ok' }));
    const [first, second] = at('/rotate');
    expect(await verify(oldSecret, first!.raw.toString(), String(first!.headers['x-service-signature']))).toBe(true);
    expect(await verify(newSecret, second!.raw.toString(), String(second!.headers['x-service-signature']))).toBe(true);
    expect(await verify(oldSecret, second!.raw.toString(), String(second!.headers['x-service-signature']))).toBe(false);
    expect(second!.headers['x-secret-key']).toBe(newSecret);
  });

  it('sends a custom payload: method, templated URL, headers and body, signed over the rendered bytes', async () => {
    const customPayload = {
      enabled: true,
      method: 'PUT',
      headers: { 'X-Conversation': '{{conversation.id}}', 'Content-Type': 'text/plain' },
      body: 'conv={{conversation.id}} user={{conversation}} missing={{nope.path}} id={{deliveryId}}',
    };
    const { id, secret } = await hook('conversation.started', '/custom/{{conversation.id}}', { customPayload });
    const payload = startedPayload();
    await emit({ type: 'conversation.started', payload });
    const [req] = await waitFor(() => at('/custom').length === 1 && at('/custom'));
    const deliveryId = String(req!.headers['x-service-delivery-id']);
    expect(req!.method).toBe('PUT');
    expect(req!.path).toBe(`/custom/${payload.conversation.id}`);
    expect(req!.headers['x-conversation']).toBe(payload.conversation.id);
    expect(req!.headers['content-type']).toBe('text/plain');
    expect(req!.raw.toString()).toBe(`conv=${payload.conversation.id} user=${JSON.stringify(payload.conversation)} missing={{nope.path}} id=${deliveryId}`);
    expect(await verify(secret, req!.raw.toString(), String(req!.headers['x-service-signature']))).toBe(true);
    const [delivery] = await waitFor(() => finished(id));
    expect(delivery!.unresolved).toEqual(['{{nope.path}}']);
  });

  it('test-sends a sample to a disabled hook with X-Service-Test and reports status, body and unresolved tokens', async () => {
    const created = await api()('post', `/bots/${tenant.botId}/webhooks`, {
      type: 'conversation.escalated',
      url: `${sink.url}/test-send`,
      customPayload: { enabled: true, method: 'POST', headers: { 'X-Email': '{{userEmail}}' }, body: '{"c":{{conversation}},"x":"{{not.there}}"}' },
    });
    sink.reply((req) => (req.path.startsWith('/test-send') ? { status: 202, body: 'accepted here' } : { status: 200 }));
    const res = await api()('post', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/test`);
    sink.reply(() => ({ status: 200, body: 'ok' }));
    expect(res.status).toBe(200);
    expect(res.body.test).toMatchObject({ status: 202, body: 'accepted here', unresolved: ['{{not.there}}'], error: null });
    const [req] = at('/test-send');
    expect(req!.headers['x-service-test']).toBe('true');
    expect(req!.headers['x-service-event']).toBe('conversation.escalated');
    expect(req!.headers['x-email']).toBe('user@example.com');
    expect(JSON.parse(req!.raw.toString()).c).toMatchObject({ botId: tenant.botId, botName: 'Support bot', state: 'Escalated' });
    expect(await verify(created.body.secret, req!.raw.toString(), String(req!.headers['x-service-signature']))).toBe(true);
    // Logged as a test, with its one attempt, through the admin API; never resent.
    const log = await api()('get', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toHaveLength(1);
    expect(log.body.deliveries[0]).toMatchObject({
      id: res.body.test.deliveryId,
      test: true,
      status: 'delivered',
      event: 'conversation.escalated',
      attemptCount: 1,
      unresolved: ['{{not.there}}'],
      request: { method: 'POST', url: `${sink.url}/test-send` },
    });
    expect(log.body.deliveries[0].attempts).toMatchObject([{ number: 1, status: 'succeeded', httpStatus: 202, responseBody: 'accepted here' }]);
    expect(req!.headers['x-service-delivery-id']).toBe(res.body.test.deliveryId);
    const one = await api()('get', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/deliveries/${res.body.test.deliveryId}`);
    expect(one.body.delivery).toMatchObject({ test: true, status: 'delivered' });
    await api()('put', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true });
    const resend = await api()('post', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/deliveries/${res.body.test.deliveryId}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body).toMatchObject({ success: false, code: 'conflict' });
    const metrics = await registry.getSingleMetricAsString('relay_webhook_deliveries_total');
    expect(metrics).toMatch(/relay_webhook_deliveries_total\{outcome="succeeded",attempt="1",test="true"\} [1-9]/);
  });

  it('reports a failed test send with its error instead of failing the request', async () => {
    const created = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'sync.success', url: 'http://127.0.0.1:1/closed' });
    const res = await api()('post', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.test).toMatchObject({ status: null, error: { code: 'network' } });
    const log = await api()('get', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/deliveries`);
    expect(log.body.deliveries).toMatchObject([{ id: res.body.test.deliveryId, test: true, status: 'failed', attempts: [{ number: 1, status: 'failed', error: { code: 'network' } }] }]);
    const metrics = await registry.getSingleMetricAsString('relay_webhook_deliveries_total');
    expect(metrics).toMatch(/relay_webhook_deliveries_total\{outcome="failed",attempt="1",test="true"\} [1-9]/);
  });

  it('lists test sends among live deliveries in the order they were made', async () => {
    const { id } = await hook('conversation.started', '/ordered');
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      await emit({ type: 'conversation.started', payload: startedPayload() });
      const live = await waitFor(async () => {
        const list = await deliveriesOf(id);
        return list.length === made.length + 1 && list.at(-1);
      });
      made.push(live.id);
      for (let j = 0; j < 2; j++) made.push((await api()('post', `/bots/${tenant.botId}/webhooks/${id}/test`).expect(200)).body.test.deliveryId);
    }
    const log = await api()('get', `/bots/${tenant.botId}/webhooks/${id}/deliveries?limit=100`).expect(200);
    expect(log.body.deliveries.map((d: { id: string }) => d.id)).toEqual(made);
    expect(log.body.deliveries.map((d: { test: boolean }) => d.test)).toEqual(made.map((_, n) => n % 3 !== 0));
  });

  it('lists deliveries with their attempts and resends one with the same id and bytes', async () => {
    const { id } = await hook('conversation.started', '/log');
    for (let i = 0; i < 3; i++) await emit({ type: 'conversation.started', payload: startedPayload() });
    await waitFor(() => finished(id, 3));
    const page = await api()('get', `/bots/${tenant.botId}/webhooks/${id}/deliveries?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.deliveries).toHaveLength(2);
    expect(page.body.pagination).toEqual({ total: 3, last: page.body.deliveries[1].id, totalCapped: false });
    expect(page.body.deliveries[0]).toMatchObject({ status: 'delivered', event: 'conversation.started', attemptCount: 1 });
    expect(page.body.deliveries[0].attempts[0]).toMatchObject({ number: 1, status: 'succeeded', httpStatus: 200 });
    const rest = await api()('get', `/bots/${tenant.botId}/webhooks/${id}/deliveries?limit=2&cursor=${page.body.pagination.last}`);
    expect(rest.body.deliveries).toHaveLength(1);

    const target = page.body.deliveries[0];
    const before = at('/log').filter((r) => r.headers['x-service-delivery-id'] === target.id);
    const resent = await api()('post', `/bots/${tenant.botId}/webhooks/${id}/deliveries/${target.id}/resend`);
    expect(resent.status).toBe(202);
    const again = await waitFor(async () => {
      const d = await getDelivery(tenant.botId, id, target.id);
      return d?.status === 'delivered' && d.attemptCount === 2 ? d : null;
    });
    expect(again.attempts.map((a) => a.status)).toEqual(['succeeded', 'succeeded']);
    const after = at('/log').filter((r) => r.headers['x-service-delivery-id'] === target.id);
    expect(after).toHaveLength(before.length + 1);
    expect(after[after.length - 1]!.raw.equals(before[0]!.raw)).toBe(true);
  });

  it('refuses to resend a delivery that is still pending or whose hook is disabled (409)', async () => {
    const { id } = await hook('conversation.started', '/resend-rules');
    await emit({ type: 'conversation.started', payload: startedPayload() });
    const [delivery] = await waitFor(() => finished(id));
    // As a row whose retries are running: settled (no longer fresh) and due later.
    await DeliveryModel.updateOne({ id: delivery!.id }, { $set: { status: 'pending', fresh: false, nextAttemptAt: new Date(Date.now() + 3_600_000) } });
    const path = `/bots/${tenant.botId}/webhooks/${id}/deliveries/${delivery!.id}/resend`;
    expect((await api()('post', path)).status).toBe(409);
    await DeliveryModel.updateOne({ id: delivery!.id }, { $set: { status: 'delivered', nextAttemptAt: null } });
    await api()('put', `/bots/${tenant.botId}/webhooks/${id}/enabled`, { enabled: false });
    expect((await api()('post', path)).body).toMatchObject({ success: false, code: 'conflict' });
  });

  it('counts attempts in the deliveries metric', async () => {
    const metrics = await registry.getSingleMetricAsString('relay_webhook_deliveries_total');
    expect(metrics).toMatch(/relay_webhook_deliveries_total\{outcome="succeeded",attempt="1",test="false"\} [1-9]/);
    expect(metrics).toMatch(/relay_webhook_deliveries_total\{outcome="failed",attempt="5",test="false"\} [1-9]/);
  });
});
