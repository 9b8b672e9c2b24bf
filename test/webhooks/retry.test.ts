// The default retry schedule (spec "Delivery behaviour" 1): waits of about 30 s, 1 min, 2 min and
// 4 min, each stretched by up to 10 % jitter, 5 attempts, then failed. The clock and the jitter's
// random source are injected, so the real schedule runs without waiting for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { createWebhooksModule } from '../../src/webhooks/index.ts';
import { getDelivery, listDeliveries } from '../../src/webhooks/deliveries.ts';
import { DEFAULT_JITTER_RATIO, DEFAULT_RETRY_DELAYS_MS, retrySchedule } from '../../src/webhooks/retry.ts';
import { startSink, type Sink } from './sink.ts';
import { useRuntimeWithWebhooks } from './runtime.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DOCUMENTED_WAITS = [30 * SECOND, MINUTE, 2 * MINUTE, 4 * MINUTE];

/** Whether `wait` is the documented `base` stretched by at most the documented 10 %. */
const withinJitter = (wait: number, base: number) => wait >= base && wait <= Math.round(base * 1.1);

describe('the default retry schedule', () => {
  it('has 5 attempts and waits 30 s, 1 min, 2 min and 4 min between them when the jitter draws 0', () => {
    const schedule = retrySchedule(undefined, undefined, () => 0);
    expect(DEFAULT_RETRY_DELAYS_MS).toEqual(DOCUMENTED_WAITS);
    expect(DEFAULT_JITTER_RATIO).toBe(0.1);
    expect(schedule.attempts).toBe(5);
    expect([1, 2, 3, 4].map((n) => schedule.delayAfter(n))).toEqual(DOCUMENTED_WAITS);
  });

  it('stretches each wait by no more than 10 % at the top of the jitter range', () => {
    const schedule = retrySchedule(undefined, undefined, () => 1 - Number.EPSILON);
    expect([1, 2, 3, 4].map((n) => schedule.delayAfter(n))).toEqual([33 * SECOND, 66 * SECOND, 132 * SECOND, 264 * SECOND]);
  });

  it('scales the stretch with the drawn number', () => {
    const draws = [0.5, 0.25, 0.1, 0.75];
    let i = 0;
    const schedule = retrySchedule(undefined, undefined, () => draws[i++]!);
    expect([1, 2, 3, 4].map((n) => schedule.delayAfter(n))).toEqual([31_500, 61_500, 121_200, 258_000]);
  });

  it('draws the jitter from Math.random by default, so waits spread over the band', () => {
    const schedule = retrySchedule();
    for (const [index, base] of DOCUMENTED_WAITS.entries()) {
      const waits = Array.from({ length: 200 }, () => schedule.delayAfter(index + 1));
      expect(waits.every((w) => withinJitter(w, base))).toBe(true);
      expect(new Set(waits).size).toBeGreaterThan(10);
    }
  });
});

describe('a delivery on the default schedule', () => {
  let now = Date.now();
  const clock = { now: () => new Date(now) };
  const draws = [0.5, 0, 0.9999, 0.25];
  let drawn = 0;
  // Only the jitter source and the clock are injected: delays and ratio are the defaults.
  const module = createWebhooksModule({ random: () => draws[drawn++ % draws.length]! });
  // No Agenda worker: the test itself runs each due attempt, after moving the clock.
  const rt = useRuntimeWithWebhooks(module, { worker: false, clock });
  let sink: Sink;
  let tenant: Tenant;
  beforeAll(async () => {
    sink = await startSink(() => ({ status: 503, body: 'down' }));
    tenant = await createTenant();
  });
  afterAll(() => sink?.close());

  it('retries after about 30 s, 1 min, 2 min and 4 min, and is failed after the fifth attempt', async () => {
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/down` });
    const webhookId = created.body.webhook.id as string;
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${webhookId}/enabled`, { enabled: true });
    await rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
    const first = await waitFor(async () => (await listDeliveries(tenant.botId, webhookId, { limit: 10 })).items.find((d) => d.attemptCount === 1 && d.nextAttemptAt));
    const run = (at: number) => {
      now = at;
      return module.state().dispatcher.runNow(first.id);
    };

    const waits: number[] = [];
    let delivery = first;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const failedAt = delivery.attempts[attempt - 1]!.finishedAt!.getTime();
      const dueAt = delivery.nextAttemptAt!.getTime();
      waits.push(dueAt - failedAt);
      await run(dueAt - 1);
      expect(sink.requests).toHaveLength(attempt);
      await run(dueAt);
      expect(sink.requests).toHaveLength(attempt + 1);
      delivery = await getDelivery(tenant.botId, webhookId, first.id);
    }

    expect(waits).toEqual([31_500, 60_000, 131_999, 246_000]);
    expect(waits.every((w, i) => withinJitter(w, DOCUMENTED_WAITS[i]!))).toBe(true);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 5, nextAttemptAt: null });
    expect(delivery.attempts.map((a) => [a.number, a.status, a.httpStatus])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 'failed', 503]));
    expect(new Set(sink.requests.map((r) => r.headers['x-service-delivery-id']))).toEqual(new Set([first.id]));

    await run(now + 24 * 60 * MINUTE);
    expect(sink.requests).toHaveLength(5);
    expect((await getDelivery(tenant.botId, webhookId, first.id)).status).toBe('failed');
  });
});
