// A delivery row's request as stored (request.ts): one JSON text since session 34, with no empty
// `unresolved` list and no null end fields; rows an older release stored, the request an object,
// are shown and resent exactly as before.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { DeliveryModel } from '../../src/webhooks/model.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

describe("a delivery row's stored request", () => {
  const { rt, module } = useWebhooksRuntime({});
  let sink: Sink;
  let tenant: Tenant;
  let hookId: string;
  const api = () => adminApi(rt);
  const raw = () => DeliveryModel.collection;
  const sentFor = (deliveryId: string) => sink.requests.filter((r) => r.headers['x-service-delivery-id'] === deliveryId);

  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
    // A custom request: a method, a header and a body with quotes, a newline and non-ASCII, so the
    // text's escapes are exercised.
    const created = await api()('post', `/bots/${tenant.botId}/webhooks`, {
      type: 'conversation.started',
      url: `${sink.url}/stored`,
      customPayload: { enabled: true, method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-Quote': 'say "hi"' }, body: '{"id":"{{conversation.id}}","note":"line\\nbreak é"}' },
    });
    hookId = created.body.webhook.id;
    await api()('put', `/bots/${tenant.botId}/webhooks/${hookId}/enabled`, { enabled: true });
    await rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', payload: { conversation: { id: randomUUID() } } });
    await module.state().dispatcher.idle();
  });
  afterAll(() => sink?.close());

  it('stores a new delivery’s request as one JSON text, without an empty unresolved list or null end fields', async () => {
    const row = (await raw().findOne({ webhookId: hookId } as never)) as Record<string, unknown>;
    expect(typeof row.request).toBe('string');
    const [sent] = sentFor(String(row._id));
    const request = JSON.parse(row.request as string);
    expect(request).toEqual({ method: 'PUT', url: `${sink.url}/stored`, headers: { 'Content-Type': 'application/json', 'X-Quote': 'say "hi"' }, body: sent!.raw.toString('utf8') });
    expect(Object.keys(row)).not.toContain('unresolved');
    expect(Object.keys(row)).not.toContain('finishedAt');
    expect(Object.keys(row)).not.toContain('cancelReason');

    const page = await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`);
    expect(page.body.deliveries[0]).toMatchObject({ id: row._id, status: 'delivered', request, unresolved: [], cancelReason: null });
    // Its end is its result's, as for any fresh row.
    expect(page.body.deliveries[0].finishedAt).toBe(page.body.deliveries[0].attempts[0].finishedAt);
  });

  it('shows and resends a row stored the old way, its request an object, with the same method, headers and bytes', async () => {
    const row = (await raw().findOne({ webhookId: hookId } as never)) as Record<string, unknown>;
    const request = JSON.parse(row.request as string);
    const id = randomUUID();
    // As an older release stored a delivery that ended failed: the request an object, every field present.
    await raw().insertOne({
      ...row,
      _id: id,
      id,
      eventId: randomUUID(),
      request,
      unresolved: [],
      status: 'failed',
      attemptCount: 0,
      nextAttemptAt: null,
      firstClaim: null,
      fresh: false,
      finishedAt: new Date(),
      cancelReason: null,
    } as never);

    const shown = await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${id}`);
    expect(shown.body.delivery).toMatchObject({ id, status: 'failed', request, unresolved: [], cancelReason: null });
    const page = await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`);
    expect(page.body.deliveries.map((d: { request: unknown }) => d.request)).toEqual([request, request]);

    const resent = await api()('post', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${id}/resend`);
    expect(resent.status).toBe(202);
    const [again] = await waitFor(() => sentFor(id).length === 1 && sentFor(id));
    const [first] = sentFor(String(row._id));
    expect(again!.method).toBe('PUT');
    expect(again!.headers['x-quote']).toBe('say "hi"');
    expect(again!.raw.equals(first!.raw)).toBe(true);
  });
});
