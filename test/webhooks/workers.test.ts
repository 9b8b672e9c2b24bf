// Delivery under concurrency and crashes: two workers on one database never send the same attempt
// twice, and an attempt left pending by a dead worker is retried with the same id and bytes.
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.ts';
import { createOutboundClient } from '../../src/outbound/client.ts';
import { defineDeliveryJob, DELIVERY_JOB, perform, type DeliveryDeps } from '../../src/webhooks/delivery.job.ts';
import { getDelivery, listDeliveries } from '../../src/webhooks/deliveries.ts';
import { attemptKey, AttemptModel, DeliveryModel } from '../../src/webhooks/model.ts';
import { retrySchedule } from '../../src/webhooks/retry.ts';
import { performSweep } from '../../src/webhooks/sweep.job.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';
import { trusted } from '../../src/db/connection.ts';

describe('deliveries across workers', () => {
  const { rt, module } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10] });
  let sink: Sink;
  let tenant: Tenant;
  let second: { client: MongoClient; jobs: Scheduler; deps: DeliveryDeps; close(): Promise<void> };
  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
    // A second worker: its own Agenda on its own connection, with its own outbound client.
    const client = await MongoClient.connect(rt.uri);
    const jobs = createScheduler(client.db(), rt.config, 'second-worker');
    const outbound = createOutboundClient({ allowPrivate: true, timeoutMs: 2_000, responseLimitBytes: 4096 });
    const deps: DeliveryDeps = { ctx: { ...rt.runtime.ctx, jobs }, outbound, schedule: retrySchedule([10, 10, 10, 10], 0), leaseMs: 7_000 };
    defineDeliveryJob(jobs, deps, rt.config.JOB_LOCK_LIFETIME_MS);
    await jobs.start();
    second = { client, jobs, deps, close: () => outbound.close() };
  });
  afterAll(async () => {
    await second?.jobs.drain();
    await second?.close();
    await second?.client.close();
    await sink?.close();
  });

  async function hook(path: string) {
    const res = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}${path}` });
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true });
    return res.body.webhook.id as string;
  }
  const emit = () => rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
  const at = (path: string) => sink.requests.filter((r) => r.path.startsWith(path));

  it('sends each attempt once when both workers and the emitting process run the same deliveries at once', async () => {
    const hooks = await Promise.all(Array.from({ length: 8 }, (_, i) => hook(`/race-${i}/`)));
    // Slow enough that runs overlap; the first request of each hook fails so retries race too.
    sink.reply(async (req) => {
      await new Promise((r) => setTimeout(r, 30));
      const mine = at(req.path);
      return req.path.startsWith('/race-') && mine.length === 1 ? { status: 500 } : { status: 200 };
    });
    await emit();
    const ids = (await DeliveryModel.find({ webhookId: trusted({ $in: hooks }) }, { id: 1 }).lean<Array<{ id: string }>>()).map((d) => d.id);
    expect(ids).toHaveLength(8);
    // Every delivery is also run by both workers' Agenda and directly, as duplicate jobs would.
    await Promise.all(ids.flatMap((id) => [rt.runtime.ctx.jobs.now(DELIVERY_JOB, { deliveryId: id }), second.jobs.now(DELIVERY_JOB, { deliveryId: id }), perform(second.deps, id)]));
    await waitFor(async () => (await DeliveryModel.countDocuments({ id: trusted({ $in: ids }), status: 'delivered' })) === 8, 20_000);
    sink.reply(() => ({ status: 200, body: 'ok' }));
    for (const id of ids) {
      const { webhookId } = (await DeliveryModel.findOne({ id }, { webhookId: 1 }).lean<{ webhookId: string }>())!;
      const delivery = await getDelivery(tenant.botId, webhookId, id);
      expect(delivery.attempts.map((a) => [a.number, a.status])).toEqual([
        [1, 'failed'],
        [2, 'succeeded'],
      ]);
      expect(sink.requests.filter((r) => r.headers['x-service-delivery-id'] === id)).toHaveLength(2);
    }
  });

  it('retries an attempt left pending by a dead worker, after its lease, with the same id and bytes', async () => {
    const id = await hook('/crash');
    await emit();
    const [first] = await waitFor(async () => {
      const items = (await listDeliveries(tenant.botId, id, { limit: 10 })).items;
      return items[0]?.status === 'delivered' && items;
    });
    await module.state().dispatcher.idle();
    // Simulate a worker that claimed attempt 2 and died: a pending row whose lease has run out.
    const past = new Date(Date.now() - 60_000);
    await AttemptModel.create({ _id: attemptKey(first!.id, 2), deliveryId: first!.id, number: 2, startedAt: past, leaseUntil: past });
    // The row as a worker leaves it once it has settled attempt 1 and claims attempt 2.
    await DeliveryModel.updateOne({ id: first!.id }, { $set: { status: 'pending', fresh: false, attemptCount: 1, attemptLimit: 6, nextAttemptAt: past, finishedAt: null } });

    // The sweep finds it overdue and hands it to Agenda; a worker marks attempt 2 interrupted and sends attempt 3.
    expect(await performSweep(rt.runtime.ctx, 30_000)).toBe(1);
    const delivery = await waitFor(async () => {
      const d = await getDelivery(tenant.botId, id, first!.id);
      return d.status === 'delivered' && d;
    });
    expect(delivery.attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 'succeeded'],
      [2, 'interrupted'],
      [3, 'succeeded'],
    ]);
    const sent = at('/crash');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.raw.equals(sent[0]!.raw)).toBe(true);
    expect(sent[1]!.headers['x-service-delivery-id']).toBe(first!.id);
  });

  it('leaves an attempt whose lease is still running alone', async () => {
    const id = await hook('/in-flight');
    await emit();
    const [d] = await waitFor(async () => {
      const items = (await listDeliveries(tenant.botId, id, { limit: 10 })).items;
      return items[0]?.status === 'delivered' && items;
    });
    await module.state().dispatcher.idle();
    const soon = new Date(Date.now() + 60_000);
    await AttemptModel.create({ _id: attemptKey(d!.id, 2), deliveryId: d!.id, number: 2, startedAt: new Date(), leaseUntil: soon });
    await DeliveryModel.updateOne({ id: d!.id }, { $set: { status: 'pending', attemptLimit: 6, nextAttemptAt: new Date(0) } });
    const outcome = await perform(module.state().deps, d!.id);
    expect(outcome).toEqual({ done: false, retryAt: soon });
    expect(at('/in-flight')).toHaveLength(1);
  });
});
