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
import type { WebhooksModule } from '../../src/webhooks/index.ts';

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

describe('fan-out in batches', () => {
  const rt = useTestRuntime();
  let sink: Sink;
  beforeAll(async () => {
    sink = await startSink(() => ({ status: 200, body: 'ok' }));
  });
  afterAll(() => sink?.close());

  it('gives each of many events emitted together exactly the deliveries of its own bot, type and scope', async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const hook = async (tenant: Tenant, type: string, path: string, dataSourceIds?: string[]) => {
      const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type, url: `${sink.url}${path}`, ...(dataSourceIds ? { dataSourceIds } : {}) });
      await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true });
    };
    const DS = '00000000-0000-4000-8000-00000000000d';
    await hook(a, 'conversation.started', '/a-started');
    await hook(a, 'sync.success', '/a-sync-scoped', [DS]);
    await hook(b, 'conversation.started', '/b-started');
    await hook(b, 'sync.success', '/b-sync-any');
    const emit = (t: Tenant, type: 'conversation.started' | 'sync.success', dataSourceId?: string) =>
      rt.runtime.ctx.events.emit({ type, teamId: t.teamId, botId: t.botId, dataSourceId: dataSourceId ?? null, payload: { n: crypto.randomUUID() } });
    // 40 events at once, so most share a batch with events of the other bot and type.
    await Promise.all(
      Array.from({ length: 10 }, () => [emit(a, 'conversation.started'), emit(b, 'conversation.started'), emit(a, 'sync.success', DS), emit(b, 'sync.success', 'other')]).flat(),
    );
    // And one sync event of bot a outside its hook's scope: no delivery.
    await emit(a, 'sync.success', 'other');
    const count = (path: string) => sink.requests.filter((r) => r.path === path).length;
    await waitFor(() => count('/a-started') === 10 && count('/b-started') === 10 && count('/a-sync-scoped') === 10 && count('/b-sync-any') === 10);
    // Every emit waited for its fan-out; once the dispatcher is idle, nothing more is on its way.
    await (rt.runtime.modules.find((m) => m.name === 'webhooks') as WebhooksModule).state().dispatcher.idle();
    expect([count('/a-started'), count('/b-started'), count('/a-sync-scoped'), count('/b-sync-any')]).toEqual([10, 10, 10, 10]);
    // Every request carries a different delivery id.
    expect(new Set(sink.requests.map((r) => r.headers['x-service-delivery-id'])).size).toBe(40);
  });
});
