// The delivery log counts its total up to DELIVERY_LIST_TOTAL_LIMIT (here 4): exact below it, the
// limit and `totalCapped: true` above it, and the pages still walk every delivery.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

describe('webhook delivery log total', () => {
  const { rt } = useWebhooksRuntime({}, { env: { DELIVERY_LIST_TOTAL_LIMIT: '4' } });
  let sink: Sink;
  let tenant: Tenant;
  let hookId: string;
  const api = () => adminApi(rt);
  const log = (query: string) => api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries?${query}`);
  const emit = (n: number) =>
    Promise.all(Array.from({ length: n }, () => rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', payload: { conversation: { id: crypto.randomUUID() } } })));
  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
    const created = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/log` });
    hookId = created.body.webhook.id;
    await api()('put', `/bots/${tenant.botId}/webhooks/${hookId}/enabled`, { enabled: true });
  });
  afterAll(() => sink?.close());

  it('gives the exact total up to the limit, then the limit with totalCapped, and pages through them all', async () => {
    await emit(4);
    await waitFor(async () => (await log('limit=100')).body.deliveries.length === 4);
    const exact = await log('limit=3');
    expect(exact.body.pagination).toEqual({ total: 4, last: exact.body.deliveries[2].id, totalCapped: false });

    await emit(2);
    await waitFor(async () => (await log('limit=100')).body.deliveries.length === 6);
    const first = await log('limit=3');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ total: 4, last: first.body.deliveries[2].id, totalCapped: true });
    const second = await log(`limit=3&cursor=${first.body.pagination.last}`);
    expect(second.body.deliveries).toHaveLength(3);
    expect(second.body.pagination).toMatchObject({ total: 4, totalCapped: true });
    const ids = [...first.body.deliveries, ...second.body.deliveries].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(6);
    expect((await log(`limit=3&cursor=${second.body.pagination.last}`)).body.deliveries).toEqual([]);
    const stranger = await log(`cursor=${crypto.randomUUID()}`);
    expect(stranger.status).toBe(400);
    expect(stranger.body).toMatchObject({ success: false, code: 'invalid_cursor' });
  });
});
