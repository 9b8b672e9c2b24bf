// How first attempts are recorded (dispatcher.ts, attempts.ts): claims and results are rows of
// their own, written in batches; the delivery row is settled afterwards, and until then every
// reader takes the delivery's state from its newest result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { insertResults, readAttempt } from '../../src/webhooks/attempts.ts';
import { claimRow } from '../../src/webhooks/delivery.job.ts';
import { getDelivery } from '../../src/webhooks/deliveries.ts';
import { attemptKey, AttemptModel, AttemptResultModel, DeliveryModel, type Delivery } from '../../src/webhooks/model.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

describe('recording first attempts', () => {
  const { rt, module } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10] });
  let sink: Sink;
  let tenant: Tenant;
  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
  });
  afterAll(() => sink?.close());

  const api = () => adminApi(rt);
  async function hook(path: string): Promise<string> {
    const res = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}${path}` });
    await api()('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true });
    return res.body.webhook.id as string;
  }
  const emit = () => rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
  const dispatcher = () => module.state().dispatcher;
  const at = (path: string) => sink.requests.filter((r) => r.path === path);

  it('claims every first attempt before sending, records each result once, and settles every delivery row', async () => {
    const hooks = await Promise.all(Array.from({ length: 12 }, (_, i) => hook(`/batch-${i}`)));
    await emit();
    await dispatcher().idle();
    for (const [i, webhookId] of hooks.entries()) {
      expect(at(`/batch-${i}`)).toHaveLength(1);
      const row = await DeliveryModel.findOne({ webhookId }).lean<Delivery>();
      expect(row).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null });
      // The claim row stays as written; the outcome is its result row.
      expect(await AttemptModel.findById(attemptKey(row!.id, 1)).lean()).toMatchObject({ status: 'pending', number: 1 });
      expect(await AttemptResultModel.findById(attemptKey(row!.id, 1)).lean()).toMatchObject({ status: 'succeeded', httpStatus: 200 });
      expect(await readAttempt(row!.id, 1)).toMatchObject({ status: 'succeeded', httpStatus: 200, number: 1 });
    }
  });

  it('shows a delivery by its result while its row is not settled, refuses a resend until it is, and a run settles it without sending again', async () => {
    const webhookId = await hook('/unsettled');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    // The row as it is between the result insert and the settle.
    await DeliveryModel.updateOne({ _id: row.id }, { $set: { status: 'pending', attemptCount: 0, nextAttemptAt: row.createdAt, finishedAt: null } });

    const shown = await getDelivery(tenant.botId, webhookId, row.id);
    expect(shown).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null, settled: 'pending' });
    const listed = await api()('get', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries`);
    expect(listed.body.deliveries[0]).toMatchObject({ id: row.id, status: 'delivered', attemptCount: 1 });
    const resend = await api()('post', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries/${row.id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body).toMatchObject({ success: false });

    await dispatcher().runNow(row.id);
    expect(at('/unsettled')).toHaveLength(1);
    expect(await DeliveryModel.findById(row.id).lean()).toMatchObject({ status: 'delivered' });
    const again = await api()('post', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries/${row.id}/resend`);
    expect(again.status).toBe(202);
    await waitFor(() => at('/unsettled').length === 2);
  });

  it('sends nothing for a first attempt another runner claimed first', async () => {
    const webhookId = await hook('/claimed');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    expect(at('/claimed')).toHaveLength(1);
    // A fresh delivery whose attempt 1 is already claimed, dispatched as if just created.
    const copyId = crypto.randomUUID();
    const copy = { ...row, _id: copyId, id: copyId, eventId: `copy-${copyId}`, status: 'pending' as const, attemptCount: 0, finishedAt: null };
    await DeliveryModel.collection.insertOne(copy as never);
    await AttemptModel.create(claimRow(copyId, 1, new Date(), 60_000));
    dispatcher().dispatch([{ delivery: copy as Delivery, secret: 'whsec_unused' }]);
    await dispatcher().idle();
    expect(sink.requests.filter((r) => r.headers['x-service-delivery-id'] === copyId)).toHaveLength(0);
    expect(await AttemptResultModel.findById(attemptKey(copyId, 1)).lean()).toBeNull();
  });

  it('keeps the first outcome recorded for an attempt', async () => {
    const key = attemptKey('00000000-0000-7000-8000-000000000001', 1);
    const base = { _id: key, deliveryId: '00000000-0000-7000-8000-000000000001', number: 1, finishedAt: new Date(), httpStatus: null, durationMs: null, responseBody: null, responseTruncated: false, retryAt: null };
    const first = await insertResults([{ ...base, status: 'interrupted', error: { code: 'interrupted', message: 'gone' } }]);
    const late = await insertResults([{ ...base, status: 'succeeded', httpStatus: 200, error: null }]);
    expect([...first]).toEqual([key]);
    expect(late.size).toBe(0);
    expect(await AttemptResultModel.findById(key).lean()).toMatchObject({ status: 'interrupted' });
  });
});
