// A delivery that cannot be rendered or stored (issue 35, W1) never costs another hook its delivery:
// events from several tenants are fanned out together with one whose custom body renders to about
// 20 MB. Every good hook gets its delivery at once (no sweep runs here: no worker), and the poison
// one is a failed delivery in its hook's log, with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { useWebhooksRuntime } from './runtime.ts';
import { startSink, type Sink } from './sink.ts';
import { DELIVERY_BODY_LIMIT_BYTES, type RequestLimits } from '../../src/webhooks/unsendable.ts';
import { bigUserData, POISON_BODY } from './poison.ts';

/** A bound, not a speed check: nothing here runs late deliveries (no worker, so no sweep). */
const WAIT_MS = 90_000;

/** The runtime with no worker, so no sweep can make up for a lost delivery: what arrives, arrived at once. */
function poisonScenario(limits?: RequestLimits) {
  const { rt, module } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10], ...(limits ? { requestLimits: limits } : {}) }, { worker: false });
  let sink: Sink;
  beforeAll(async () => {
    sink = await startSink(() => ({ status: 200, body: 'ok' }));
  });
  afterAll(() => sink?.close());

  async function hook(tenant: Tenant, path: string, customBody?: string) {
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, {
      type: 'conversation.started',
      url: `${sink.url}${path}`,
      ...(customBody ? { customPayload: { enabled: true, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: customBody } } : {}),
    });
    expect(created.status).toBe(201);
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true });
    return created.body.webhook.id as string;
  }

  /** 36 events from three tenants at once; the poison hook's delivery of event 18 cannot be sent. */
  async function run(): Promise<{ failed: { eventId: string; attempts: unknown[]; error: { code: string; message: string } } }> {
    const tenants = [await createTenant(), await createTenant(), await createTenant()];
    const good = await Promise.all(tenants.map((t, i) => hook(t, `/good-${i}`)));
    const poison = await hook(tenants[0]!, '/poison', POISON_BODY);
    const emit = (t: Tenant, n: number, userData: Record<string, unknown>) =>
      rt.runtime.ctx.events.emit({
        type: 'conversation.started',
        teamId: t.teamId,
        botId: t.botId,
        payload: { event: 'conversation.started', conversation: { id: crypto.randomUUID(), botId: t.botId, n, userData } },
      });
    // 36 events at once from three tenants, the poison one in the middle, so it shares its fan-out batch.
    const events = await Promise.all(
      Array.from({ length: 36 }, (_, n) => emit(tenants[n % 3]!, n, n === 18 ? bigUserData() : { name: `user ${n}` })),
    );
    const count = (path: string) => sink.requests.filter((r) => r.path === path).length;
    // Each tenant's good hook: one delivery per event of its bot, the poison event's included.
    await waitFor(() => [0, 1, 2].every((i) => count(`/good-${i}`) === 12), WAIT_MS);
    const log = await waitFor(async () => {
      const res = await adminApi(rt)('get', `/bots/${tenants[0]!.botId}/webhooks/${poison}/deliveries?limit=100`);
      return res.body.deliveries?.length === 12 && res.body.deliveries;
    }, WAIT_MS);
    const failed = log.filter((d: { status: string }) => d.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ eventId: events[18]!.id, attempts: [] });
    // The poison hook's other 11 events were small enough and are delivered.
    await waitFor(() => count('/poison') === 11, WAIT_MS);
    await module.state().dispatcher.idle();
    expect([count('/good-0'), count('/good-1'), count('/good-2'), count('/poison')]).toEqual([12, 12, 12, 11]);
    expect(good).toHaveLength(3);
    return { failed: failed[0] };
  }
  return { run, sink: () => sink };
}

describe('a poison delivery among good ones', () => {
  const scenario = poisonScenario();

  it('delivers every good hook at once and records the poison one as failed with payload_too_large', { timeout: 180_000 }, async () => {
    const { failed } = await scenario.run();
    expect(failed.error.code).toBe('payload_too_large');
    expect(failed.error.message).toContain(String(DELIVERY_BODY_LIMIT_BYTES));
    // No request was ever near the limit.
    expect(Math.max(...scenario.sink().requests.map((r) => r.raw.length))).toBeLessThanOrEqual(DELIVERY_BODY_LIMIT_BYTES);
  });
});

describe('a delivery the database refuses among good ones', () => {
  // Limits far above the database's 16 MB document: the poison row reaches the insert and is refused there.
  const scenario = poisonScenario({ bodyBytes: 64 * 1024 * 1024, urlBytes: 16 * 1024, headersBytes: 64 * 1024 });

  it('stores its batch-mates and delivers them at once, and records the refused one as failed with store_failed', { timeout: 180_000 }, async () => {
    const { failed } = await scenario.run();
    expect(failed.error.code).toBe('store_failed');
  });
});
