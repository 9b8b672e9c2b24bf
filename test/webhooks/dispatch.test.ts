// First attempts are dispatched in the process that stored the deliveries, not by an Agenda worker's
// poll: with the poll interval at 10 minutes, the sink still gets the delivery within waitFor's
// default bound, and no Agenda job was ever queued for it. Only retries go through Agenda.
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { DELIVERY_JOB } from '../../src/webhooks/delivery.job.ts';
import { getDelivery } from '../../src/webhooks/deliveries.ts';
import { startSink, type Sink } from './sink.ts';

const TEN_MINUTES = '600000';

describe('first delivery attempts', () => {
  // The production webhooks module (default schedule), with a worker that polls every 10 minutes.
  const rt = useTestRuntime({ env: { JOB_PROCESS_EVERY_MS: TEN_MINUTES } });
  let sink: Sink;
  let tenant: Tenant;
  beforeAll(async () => {
    sink = await startSink((req) => (req.path.startsWith('/down') ? { status: 500 } : { status: 200, body: 'ok' }));
    tenant = await createTenant();
  });
  afterAll(() => sink?.close());

  async function enabledHook(path: string) {
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}${path}` });
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true });
    return created.body.webhook.id as string;
  }
  const deliveryJobs = (deliveryId: string) => mongoose.connection.db!.collection('agendaJobs').countDocuments({ name: DELIVERY_JOB, 'data.deliveryId': deliveryId });

  it('reaches the sink without waiting for the poll interval and without an Agenda job', async () => {
    expect(rt.config.JOB_PROCESS_EVERY_MS).toBe(600_000);
    const webhookId = await enabledHook('/up');
    await rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
    const [request] = await waitFor(() => sink.requests.filter((r) => r.path === '/up').length === 1 && sink.requests.filter((r) => r.path === '/up'));
    const deliveryId = String(request!.headers['x-service-delivery-id']);
    const delivery = await waitFor(async () => {
      const d = await getDelivery(tenant.botId, webhookId, deliveryId);
      return d.status === 'delivered' && d;
    });
    expect(delivery.attempts.map((a) => a.status)).toEqual(['succeeded']);
    expect(await deliveryJobs(deliveryId)).toBe(0);
  });

  it('hands only the retry of a failed first attempt to Agenda', async () => {
    const webhookId = await enabledHook('/down');
    await rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
    const [request] = await waitFor(() => sink.requests.filter((r) => r.path === '/down').length === 1 && sink.requests.filter((r) => r.path === '/down'));
    const deliveryId = String(request!.headers['x-service-delivery-id']);
    await waitFor(async () => (await deliveryJobs(deliveryId)) === 1);
    const delivery = await getDelivery(tenant.botId, webhookId, deliveryId);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
    // The retry waits the default ~30 s, so within this test it has not been sent.
    expect(delivery.nextAttemptAt!.getTime() - delivery.attempts[0]!.finishedAt!.getTime()).toBeGreaterThanOrEqual(30_000);
  });
});
