// Issue 19, "no head-of-line blocking", over real HTTP: a hook whose endpoint hangs holds only its
// own lane (its cap, 2 here) while another hook's deliveries of the same events all arrive, in a
// process with only 4 slots. Before lanes, the hanging hook's attempts took every slot in turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { listDeliveries } from '../../src/webhooks/deliveries.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

const EVENTS = 20;

describe('a hanging endpoint and the other hooks', () => {
  const { rt } = useWebhooksRuntime({ retryDelaysMs: [10], dispatchConcurrency: 4 }, { env: { OUTBOUND_TIMEOUT_MS: '5000' } });
  let slow: Sink;
  let fast: Sink;
  let tenant: Tenant;
  let hold = true;
  // The serial hook's receiver: how many of its requests are open at once, and which ids it saw.
  let inFlight = 0;
  let maxInFlight = 0;
  const seen = new Set<string>();
  beforeAll(async () => {
    slow = await startSink(() => (hold ? 'hang' : { status: 200 }));
    fast = await startSink(async (req) => {
      if (!req.path.startsWith('/serial')) return { status: 200 };
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      // Each delivery fails once, so its second attempt is a retry (an Agenda job).
      const id = String(req.headers['x-service-delivery-id']);
      const first = !seen.has(id);
      seen.add(id);
      return { status: first ? 500 : 200 };
    });
    tenant = await createTenant({ bot: 'Lanes bot' });
  });
  afterAll(async () => {
    await slow?.close();
    await fast?.close();
  });

  async function hook(url: string, extra: Record<string, unknown> = {}) {
    const res = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url, ...extra }).expect(201);
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true }).expect(200);
    return res.body.webhook.id as string;
  }

  it('delivers every event to the fast hook while the slow one holds its two slots', async () => {
    const slowId = await hook(slow.url, { concurrency: 2 });
    const fastId = await hook(fast.url);
    for (let i = 0; i < EVENTS; i++) {
      const conversation = { id: crypto.randomUUID(), botId: tenant.botId, botName: 'Lanes bot', channelType: 'api', initialMessage: `m${i}`, createdAt: new Date().toISOString() };
      await rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', conversationId: conversation.id, payload: { event: 'conversation.started', conversation } });
    }
    await waitFor(() => fast.requests.length === EVENTS);
    // All of them arrived while the slow endpoint still held its first two requests, unanswered.
    expect(slow.requests).toHaveLength(2);
    hold = false;
    // The slow hook's deliveries go on once its lane frees: nothing was lost.
    await waitFor(async () => (await listDeliveries(tenant.botId, slowId, { limit: 100 })).items.filter((d) => d.status === 'delivered').length === EVENTS, 30_000);
    expect((await listDeliveries(tenant.botId, fastId, { limit: 100 })).items.every((d) => d.status === 'delivered')).toBe(true);
  });

  it('runs retries in the hook\'s lane too: a hook capped at 1 never has two requests open, first attempts and retries alike', async () => {
    const serialId = await hook(`${fast.url}/serial`, { concurrency: 1 });
    for (let i = 0; i < 6; i++) {
      const conversation = { id: crypto.randomUUID(), botId: tenant.botId, botName: 'Lanes bot', channelType: 'api', initialMessage: `s${i}`, createdAt: new Date().toISOString() };
      await rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', conversationId: conversation.id, payload: { event: 'conversation.started', conversation } });
    }
    const items = await waitFor(async () => {
      const list = (await listDeliveries(tenant.botId, serialId, { limit: 100 })).items;
      return list.length === 6 && list.every((d) => d.status === 'delivered') && list;
    }, 30_000);
    expect(items.map((d) => d.attempts.map((a) => a.status))).toEqual(Array(6).fill(['failed', 'succeeded']));
    expect(maxInFlight).toBe(1);
  });
});
