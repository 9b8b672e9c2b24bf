// How first attempts are recorded (dispatcher.ts, attempts.ts, sweep.job.ts): claims and results
// are rows of their own, written in batches. A success leaves the delivery row as created (fresh)
// and readers take its state from the result; any other outcome is settled onto the row after,
// and until then readers take it from the result too. The sweep checks fresh rows in bulk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { insertResults, readAttempt } from '../../src/webhooks/attempts.ts';
import { claimRow } from '../../src/webhooks/delivery.job.ts';
import { performSweep } from '../../src/webhooks/sweep.job.ts';
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

  it('claims every first attempt before sending, records each result once, and leaves a successful delivery row as created', async () => {
    const hooks = await Promise.all(Array.from({ length: 12 }, (_, i) => hook(`/batch-${i}`)));
    await emit();
    await dispatcher().idle();
    for (const [i, webhookId] of hooks.entries()) {
      expect(at(`/batch-${i}`)).toHaveLength(1);
      const row = await DeliveryModel.findOne({ webhookId }).lean<Delivery>();
      expect(row).toMatchObject({ status: 'pending', attemptCount: 0, fresh: true });
      // The claim row stays as written; the outcome is its result row, and readers go by it.
      expect(await AttemptModel.findById(attemptKey(row!.id, 1)).lean()).toMatchObject({ status: 'pending', number: 1 });
      expect(await AttemptResultModel.findById(attemptKey(row!.id, 1)).lean()).toMatchObject({ status: 'succeeded', httpStatus: 200 });
      expect(await readAttempt(row!.id, 1)).toMatchObject({ status: 'succeeded', httpStatus: 200, number: 1 });
      expect(await getDelivery(tenant.botId, webhookId, row!.id)).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null, settled: 'pending' });
    }
  });

  it('resends a fresh delivered row at once; a run of it closes the row without sending again', async () => {
    const webhookId = await hook('/fresh');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    const listed = await api()('get', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries`);
    expect(listed.body.deliveries[0]).toMatchObject({ id: row.id, status: 'delivered', attemptCount: 1 });

    await dispatcher().runNow(row.id);
    expect(at('/fresh')).toHaveLength(1);
    expect(await DeliveryModel.findById(row.id).lean()).toMatchObject({ status: 'delivered', fresh: false });
    const resend = await api()('post', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries/${row.id}/resend`);
    expect(resend.status).toBe(202);
    await waitFor(() => at('/fresh').length === 2);
  });

  it('shows an outcome not yet settled onto its row by its result, and refuses a resend until it is', async () => {
    const webhookId = await hook('/unsettled');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    // A row that is no longer fresh, as it is between a result insert and its settle.
    await DeliveryModel.updateOne({ _id: row.id }, { $set: { status: 'pending', fresh: false, attemptCount: 0, nextAttemptAt: row.createdAt, finishedAt: null } });

    const shown = await getDelivery(tenant.botId, webhookId, row.id);
    expect(shown).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null, settled: 'pending' });
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

  it('sweeps fresh rows past the grace period: hands over those without a successful first attempt, once', async () => {
    const webhookId = await hook('/swept');
    await emit();
    await dispatcher().idle();
    const delivered = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    const old = new Date(Date.now() - 120_000);
    // Copies as a process leaves them when it dies: one never claimed, one claimed and never ended.
    const copy = async (claimed: boolean) => {
      const id = crypto.randomUUID();
      await DeliveryModel.collection.insertOne({ ...delivered, _id: id, id, eventId: `copy-${id}`, createdAt: old, nextAttemptAt: old } as never);
      if (claimed) await AttemptModel.create(claimRow(id, 1, old, 1_000));
      return id;
    };
    const unclaimed = await copy(false);
    const interrupted = await copy(true);
    // The delivered one as if it had been created and sent back then too.
    await DeliveryModel.updateOne({ _id: delivered.id }, { $set: { createdAt: old, nextAttemptAt: old } });
    await AttemptResultModel.updateOne({ _id: attemptKey(delivered.id, 1) }, { $set: { finishedAt: new Date(old.getTime() + 50) } });

    expect(await performSweep(rt.runtime.ctx, 30_000)).toBe(2);
    // Checked up to the grace period: a second sweep finds nothing to hand over.
    expect(await performSweep(rt.runtime.ctx, 30_000)).toBe(0);
    await waitFor(async () => (await getDelivery(tenant.botId, webhookId, interrupted)).status === 'delivered' && (await getDelivery(tenant.botId, webhookId, unclaimed)).status === 'delivered');
    expect((await getDelivery(tenant.botId, webhookId, interrupted)).attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 'interrupted'],
      [2, 'succeeded'],
    ]);
    expect((await getDelivery(tenant.botId, webhookId, unclaimed)).attempts.map((a) => [a.number, a.status])).toEqual([[1, 'succeeded']]);
    // The delivered one was left alone: sent once, its row still as created.
    expect(sink.requests.filter((r) => r.headers['x-service-delivery-id'] === delivered.id)).toHaveLength(1);
    expect(await DeliveryModel.findById(delivered.id).lean()).toMatchObject({ fresh: true, status: 'pending' });
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

  it('deletes the whole delivery log of a deleted hook, attempt results included', async () => {
    const webhookId = await hook('/deleted');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    expect(await AttemptResultModel.countDocuments({ deliveryId: row.id })).toBe(1);
    expect((await api()('delete', `/bots/${tenant.botId}/webhooks/${webhookId}`)).status).toBe(200);
    expect(await DeliveryModel.countDocuments({ webhookId })).toBe(0);
    expect(await AttemptModel.countDocuments({ deliveryId: row.id })).toBe(0);
    expect(await AttemptResultModel.countDocuments({ deliveryId: row.id })).toBe(0);
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
