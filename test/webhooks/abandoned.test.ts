// An event the sweep gives up (src/events/service.ts) leaves a failed delivery, `dispatch_abandoned`,
// in the log of each hook it was for that has none, through the webhooks' recorder on the bus.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant } from '../helpers/factories.ts';
import { EventBus, MAX_SWEEP_TRIES } from '../../src/events/service.ts';
import { UndispatchedEventModel } from '../../src/events/model.ts';
import { recordAbandoned } from '../../src/webhooks/fanout.ts';

describe('an event the sweep gives up', () => {
  const rt = useTestRuntime({ worker: false });

  it("records a failed delivery with the sweep's last error for each hook of the event that has none", async () => {
    const tenant = await createTenant();
    const admin = adminApi(rt);
    const hooks: string[] = [];
    for (const path of ['/a', '/b']) {
      const created = await admin('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `https://hooks.example.com${path}` }).expect(201);
      await admin('put', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true }).expect(200);
      hooks.push(created.body.webhook.id);
    }
    // An event whose dispatch always fails, as one left in the outbox by a process that died.
    let now = new Date('2026-05-01T00:00:00Z');
    const bus = new EventBus({ now: () => now }, rt.runtime.ctx.logger);
    bus.subscribe(async () => {
      throw new Error('the fan-out failed');
    });
    bus.onAbandon((event, reason) => recordAbandoned({ now: () => now }, event, reason));
    const event = { _id: crypto.randomUUID(), id: crypto.randomUUID(), type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, dataSourceId: null, conversationId: null, payload: {}, createdAt: now, dispatchedAt: null };
    await UndispatchedEventModel.collection.insertOne({ _id: event.id, at: now, event } as never);
    now = new Date(now.getTime() + 60_000);
    for (let run = 0; run < MAX_SWEEP_TRIES; run++) await bus.redispatchStale(30_000);
    await bus.flush();
    expect(await UndispatchedEventModel.findById(event.id).lean()).toBeNull();
    for (const hookId of hooks) {
      const log = await admin('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`).expect(200);
      expect(log.body.deliveries).toHaveLength(1);
      expect(log.body.deliveries[0]).toMatchObject({ eventId: event.id, status: 'failed', attempts: [], error: { code: 'dispatch_abandoned' } });
      expect(log.body.deliveries[0].error.message).toContain('the fan-out failed');
      // It was never sent, so it cannot be resent.
      const resend = await admin('post', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${log.body.deliveries[0].id}/resend`);
      expect(resend.status).toBe(409);
      expect(resend.body).toMatchObject({ success: false, code: 'conflict' });
    }
  });
});
