// A delivery row as stored (model.ts, release 1.0.0's layout): its request a sub-document, every
// field present (an empty `unresolved` list, null end fields), and its results with every outcome
// field; shown and resent exactly as built.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { attemptKey, AttemptModel, AttemptResultModel, DeliveryModel } from '../../src/webhooks/model.ts';
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
    // A custom request: a method, a header and a body with quotes, a newline and non-ASCII.
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

  it('stores a new delivery’s request as a sub-document, and every field of the row and its result', async () => {
    const row = (await raw().findOne({ webhookId: hookId } as never)) as Record<string, unknown>;
    const [sent] = sentFor(String(row._id));
    const request = row.request;
    expect(request).toEqual({ method: 'PUT', url: `${sink.url}/stored`, headers: { 'Content-Type': 'application/json', 'X-Quote': 'say "hi"' }, body: sent!.raw.toString('utf8') });
    expect(row).toMatchObject({ unresolved: [], finishedAt: null, cancelReason: null, retryDelaysMs: null });

    const result = (await AttemptResultModel.collection.findOne({ _id: attemptKey(String(row._id), 1) } as never)) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'succeeded', httpStatus: 200, webhookId: hookId, error: null, retryAt: null, responseTruncated: false });

    const page = await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`);
    expect(page.body.deliveries[0]).toMatchObject({ id: row._id, status: 'delivered', request, unresolved: [], cancelReason: null });
    expect(page.body.deliveries[0].attempts).toEqual([expect.objectContaining({ number: 1, status: 'succeeded', error: null, responseTruncated: false })]);
    // Its end is its result's, as for any fresh row.
    expect(page.body.deliveries[0].finishedAt).toBe(page.body.deliveries[0].attempts[0].finishedAt);
  });

  it('shows and resends a failed delivery with the same method, headers and bytes', async () => {
    const row = (await raw().findOne({ webhookId: hookId } as never)) as Record<string, unknown>;
    const request = row.request;
    const id = randomUUID();
    const at = new Date();
    // A delivery whose one attempt failed: its row, an attempt row (the claim) and a result row.
    await raw().insertOne({
      ...row,
      _id: id,
      id,
      eventId: randomUUID(),
      request,
      unresolved: [],
      status: 'failed',
      attemptCount: 1,
      attemptLimit: 1,
      nextAttemptAt: null,
      firstClaim: null,
      fresh: false,
      finishedAt: at,
      cancelReason: null,
    } as never);
    await AttemptModel.collection.insertOne({ _id: attemptKey(id, 1), deliveryId: id, number: 1, startedAt: at, leaseUntil: at, runner: null } as never);
    const outcome = { finishedAt: at, httpStatus: 500, durationMs: 3, error: null, responseBody: 'no', responseTruncated: false, retryAt: null };
    await AttemptResultModel.collection.insertOne({ _id: attemptKey(id, 1), deliveryId: id, webhookId: hookId, number: 1, status: 'failed', ...outcome } as never);

    const shown = await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${id}`);
    expect(shown.body.delivery).toMatchObject({ id, status: 'failed', request, unresolved: [], cancelReason: null, attemptCount: 1 });
    expect(shown.body.delivery.attempts).toEqual([expect.objectContaining({ number: 1, status: 'failed', httpStatus: 500, error: null, responseBody: 'no', responseTruncated: false })]);
    const page = await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`);
    expect(page.body.deliveries.map((d: { request: unknown }) => d.request)).toEqual([request, request]);

    const resent = await api()('post', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${id}/resend`);
    expect(resent.status).toBe(202);
    const [again] = await waitFor(() => sentFor(id).length === 1 && sentFor(id));
    const [first] = sentFor(String(row._id));
    expect(again!.method).toBe('PUT');
    expect(again!.headers['x-quote']).toBe('say "hi"');
    expect(again!.raw.equals(first!.raw)).toBe(true);
    const done = await waitFor(async () => {
      const d = (await api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${id}`)).body.delivery;
      return d.status === 'delivered' && d;
    });
    expect(done.attempts.map((a: { number: number; status: string }) => [a.number, a.status])).toEqual([[1, 'failed'], [2, 'succeeded']]);
  });
});
