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
  beforeAll(async () => {
    slow = await startSink(() => (hold ? 'hang' : { status: 200 }));
    fast = await startSink();
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
});
