// The outgoing invariant (issue 35): on every outgoing path (fan-out, retries, test send, resend) an
// input that cannot be rendered or stored loses nothing and runs nothing twice. The good deliveries
// arrive at the sink exactly once (a retry only after a failed attempt, a resend once more), and the
// bad one is a failed record in its hook's log, with its reason, that nothing ever sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { useWebhooksRuntime } from './runtime.ts';
import { startSink, type Sink } from './sink.ts';
import { performSweep } from '../../src/webhooks/sweep.job.ts';
import { bigUserData, POISON_BODY } from './poison.ts';

const WAIT_MS = 90_000;
/** A test send's sample conversation, repeated past the 1 MiB body limit (the template itself is under 256 KB). */
const HUGE_SAMPLE_BODY = `[${Array.from({ length: 15_000 }, () => '{{conversation}}').join(',')}]`;

describe('outgoing deliveries: nothing lost, nothing twice', { timeout: 240_000 }, () => {
  const { rt, module } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10] });
  let sink: Sink;
  let a: Tenant;
  let b: Tenant;
  const hooks: Record<string, string> = {};
  /** Each delivery's first request at /flaky fails; every later one succeeds. */
  const seen = new Set<string>();
  beforeAll(async () => {
    sink = await startSink((req) => {
      if (!req.path.startsWith('/flaky')) return { status: 200, body: 'ok' };
      const id = String(req.headers['x-service-delivery-id']);
      if (seen.has(id)) return { status: 200, body: 'ok' };
      seen.add(id);
      return { status: 500, body: 'x'.repeat(64 * 1024) };
    });
    [a, b] = [await createTenant(), await createTenant()];
    const admin = adminApi(rt);
    const hook = async (tenant: Tenant, name: string, body?: string, enabled = true) => {
      const customPayload = body ? { enabled: true, method: 'POST', headers: { 'Content-Type': 'application/json' }, body } : undefined;
      const created = await admin('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/${name}`, ...(customPayload ? { customPayload } : {}) }).expect(201);
      if (enabled) await admin('put', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true }).expect(200);
      hooks[name] = created.body.webhook.id;
    };
    await hook(a, 'good');
    await hook(a, 'poison', POISON_BODY);
    await hook(b, 'flaky');
    await hook(a, 'huge-sample', HUGE_SAMPLE_BODY, false);
  });
  afterAll(() => sink?.close());

  const arrivals = (path: string) => sink.requests.filter((r) => r.path === path);
  const idsAt = (path: string) => arrivals(path).map((r) => String(r.headers['x-service-delivery-id']));
  const log = async (tenant: Tenant, name: string) => (await adminApi(rt)('get', `/bots/${tenant.botId}/webhooks/${hooks[name]}/deliveries?limit=100`).expect(200)).body.deliveries as Array<{ id: string; status: string; eventId: string; attempts: Array<{ status: string }>; error: { code: string } | null }>;
  const emit = (t: Tenant, userData: Record<string, unknown>) =>
    rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: t.teamId, botId: t.botId, payload: { event: 'conversation.started', conversation: { id: crypto.randomUUID(), botId: t.botId, userData } } });

  it('fan-out and retries: every good delivery arrives once (a retried one after its failed attempt), the poison one is a failed record', async () => {
    await Promise.all([emit(a, { n: 1 }), emit(b, { n: 1 }), emit(a, bigUserData()), emit(b, { n: 2 }), emit(a, { n: 3 }), emit(b, { n: 3 })]);
    await waitFor(async () => (await log(a, 'good')).filter((d) => d.status === 'delivered').length === 3, WAIT_MS);
    await waitFor(async () => (await log(b, 'flaky')).filter((d) => d.status === 'delivered').length === 3, WAIT_MS);
    const poison = await waitFor(async () => {
      const rows = await log(a, 'poison');
      return rows.filter((d) => d.status !== 'pending').length === 3 && rows;
    }, WAIT_MS);
    await module.state().dispatcher.idle();
    expect(poison.filter((d) => d.status === 'failed')).toMatchObject([{ attempts: [], error: { code: 'payload_too_large' } }]);
    expect(poison.filter((d) => d.status === 'delivered')).toHaveLength(2);
    // Exactly once each at the good hooks; at the flaky one, the failed attempt and its one retry.
    expect(new Set(idsAt('/good')).size).toBe(3);
    expect(idsAt('/good')).toHaveLength(3);
    expect(idsAt('/poison')).toHaveLength(2);
    expect(new Set(idsAt('/poison')).size).toBe(2);
    const flaky = idsAt('/flaky');
    expect(new Set(flaky).size).toBe(3);
    expect(flaky).toHaveLength(6);
    for (const row of await log(b, 'flaky')) expect(row.attempts.map((t) => t.status)).toEqual(['failed', 'succeeded']);
  });

  it('test send: an oversized sample is answered with its reason and sent nowhere; a good one arrives once', async () => {
    const before = sink.requests.length;
    const huge = await adminApi(rt)('post', `/bots/${a.botId}/webhooks/${hooks['huge-sample']}/test`).expect(200);
    expect(huge.body.test).toMatchObject({ status: null, error: { code: 'payload_too_large' } });
    expect(sink.requests.length).toBe(before);
    const good = await adminApi(rt)('post', `/bots/${a.botId}/webhooks/${hooks.good}/test`).expect(200);
    expect(good.body.test.status).toBe(200);
    expect(idsAt('/good').filter((id) => id === good.body.test.deliveryId)).toHaveLength(1);
    expect(sink.requests.length).toBe(before + 1);
  });

  it('resend: the failed record is refused with 409 and sends nothing; a good delivery is sent exactly once more', async () => {
    const admin = adminApi(rt);
    const [failed] = (await log(a, 'poison')).filter((d) => d.status === 'failed');
    const before = sink.requests.length;
    const refused = await admin('post', `/bots/${a.botId}/webhooks/${hooks.poison}/deliveries/${failed!.id}/resend`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'conflict' });
    expect(refused.body.message).toContain('payload_too_large');
    const [delivered] = await log(a, 'good');
    await admin('post', `/bots/${a.botId}/webhooks/${hooks.good}/deliveries/${delivered!.id}/resend`).expect(202);
    await waitFor(() => idsAt('/good').filter((id) => id === delivered!.id).length === 2, WAIT_MS);
    await module.state().dispatcher.idle();
    expect(sink.requests.length).toBe(before + 1);
    expect((await log(a, 'poison')).find((d) => d.id === failed!.id)).toMatchObject({ status: 'failed', attempts: [] });
  });

  it('the sweeps find nothing left to send: no delivery runs twice', async () => {
    const before = sink.requests.length;
    // Everything is past any grace period when the grace is 0.
    await rt.runtime.ctx.events.redispatchStale(0);
    await performSweep(rt.runtime.ctx, 0);
    await module.state().dispatcher.idle();
    expect(sink.requests.length).toBe(before);
    const [failed] = (await log(a, 'poison')).filter((d) => d.status === 'failed');
    expect(failed).toMatchObject({ error: { code: 'payload_too_large' }, attempts: [] });
  });

  it('refuses a URL whose placeholder would choose the host or port, at create and update, in the error shape', async () => {
    const admin = adminApi(rt);
    for (const url of ['https://{{conversation.userData.name}}/in', 'https://hooks.example.com:{{conversation.id}}/in', 'https://{{x}}@hooks.example.com/in', 'https://hooks.example.com{{conversation.id}}']) {
      const created = await admin('post', `/bots/${a.botId}/webhooks`, { type: 'conversation.started', url });
      expect(created.status, url).toBe(400);
      expect(created.body, url).toMatchObject({ success: false, code: 'validation_failed' });
      expect((await admin('patch', `/bots/${a.botId}/webhooks/${hooks.good}`, { url })).status, url).toBe(400);
    }
    await admin('post', `/bots/${a.botId}/webhooks`, { type: 'conversation.started', url: 'https://hooks.example.com/{{conversation.id}}?u={{conversation.userData.name}}' }).expect(201);
  });
});
