// Issue 19, endpoint health, on an injected clock: a hook whose attempts fail without a success for
// WEBHOOK_DISABLE_AFTER_FAILING_HOURS (120 by default) is disabled with a `webhook.disabled` event
// (delivered here to another hook of the bot), a success ends the failing window, and a re-enable
// can resend what failed in the window, which then arrives at the real sink.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { listDeliveries } from '../../src/webhooks/deliveries.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

const HOUR = 3600_000;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };

describe('endpoint health', () => {
  const { rt } = useWebhooksRuntime({ retryDelaysMs: [10] }, { clock });
  let sink: Sink;
  let tenant: Tenant;
  const failing = new Set(['/a', '/b']);
  const api = () => adminApi(rt);
  beforeAll(async () => {
    sink = await startSink((req) => ({ status: failing.has(req.path) ? 503 : 200 }));
    tenant = await createTenant({ bot: 'Health bot' });
  });
  afterAll(() => sink?.close());

  async function hook(path: string, type = 'conversation.started') {
    // One attempt per delivery: retries would be due at times of the moved clock.
    const res = await api()('post', `/bots/${tenant.botId}/webhooks`, { type, url: `${sink.url}${path}`, retryDelaysSeconds: [] }).expect(201);
    await api()('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true }).expect(200);
    return res.body.webhook.id as string;
  }
  const get = async (id: string) => (await api()('get', `/bots/${tenant.botId}/webhooks/${id}`).expect(200)).body.webhook;
  const requestsTo = (path: string) => sink.requests.filter((r) => r.path === path).length;
  /** Emits one event and waits until each listed hook path has received it. */
  async function event(paths: string[]) {
    const before = paths.map(requestsTo);
    const conversation = { id: crypto.randomUUID(), botId: tenant.botId, botName: 'Health bot', channelType: 'api', initialMessage: 'Hi', createdAt: clock.now().toISOString() };
    await rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', conversationId: conversation.id, payload: { event: 'conversation.started', conversation } });
    await waitFor(() => paths.every((p, i) => requestsTo(p) > before[i]!));
  }
  const settled = (id: string, count: number) =>
    waitFor(async () => {
      const items = (await listDeliveries(tenant.botId, id, { limit: 100 })).items;
      return items.length === count && items.every((d) => d.status !== 'pending') && items;
    });

  it('disables a hook failing for 120 hours, emits webhook.disabled, and a success restarts the window', async () => {
    const a = await hook('/a');
    const b = await hook('/b');
    const notify = await hook('/notify', 'webhook.disabled');
    await event(['/a', '/b']);
    await settled(a, 1);
    const startedFailing = (await waitFor(async () => (await get(a)).failingSince && (await get(a)))).failingSince;
    expect(await waitFor(async () => (await get(b)).failingSince)).toBeTruthy();

    // B answers once: its window closes.
    failing.delete('/b');
    offset = 60 * HOUR;
    await event(['/a', '/b']);
    await waitFor(async () => (await get(b)).failingSince === null);
    failing.add('/b');

    offset = 119 * HOUR;
    await event(['/a', '/b']);
    await settled(a, 3);
    expect((await get(a)).enabled).toBe(true);

    offset = 121 * HOUR;
    await event(['/a', '/b']);
    const disabled = await waitFor(async () => {
      const h = await get(a);
      return !h.enabled && h;
    });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'failing', failingSince: startedFailing });
    // B failed again at 119 h, 59 h after its success: still on.
    expect(await get(b)).toMatchObject({ enabled: true, disabledReason: null });

    // The event reached the bot's webhook.disabled hook.
    await waitFor(() => requestsTo('/notify') === 1);
    const note = JSON.parse(sink.requests.find((r) => r.path === '/notify')!.raw.toString('utf8'));
    expect(note).toMatchObject({ event: 'webhook.disabled', webhook: { id: a, type: 'conversation.started' }, reason: 'failing', failingSince: startedFailing });
    expect(notify).toBeTruthy();

    // A disabled hook gets no more deliveries.
    await event(['/b']);
    expect((await listDeliveries(tenant.botId, a, { limit: 100 })).items).toHaveLength(4);
  });

  it('re-enables a hook and resends what failed in its window, which now arrives', async () => {
    const [a] = (await api()('get', `/bots/${tenant.botId}/webhooks`).expect(200)).body.webhooks.filter((h: { url: string }) => h.url.endsWith('/a'));
    failing.delete('/a');
    const before = requestsTo('/a');
    const res = await api()('put', `/bots/${tenant.botId}/webhooks/${a.id}/enabled`, { enabled: true, resendFailed: true }).expect(200);
    expect(res.body.resent).toBe(4);
    expect(res.body.webhook).toMatchObject({ enabled: true, failingSince: null, disabledAt: null, disabledReason: null });
    const items = await waitFor(async () => {
      const list = (await listDeliveries(tenant.botId, a.id, { limit: 100 })).items;
      return list.every((d) => d.status === 'delivered') && list;
    });
    expect(items).toHaveLength(4);
    expect(requestsTo('/a') - before).toBe(4);
  });
});
