// What a delivery log page reads (deliveries.ts, attempts.ts): the results of its fresh rows come
// by the hook's range beside the page, so such a page waits once.
import { readsSent } from '../helpers/dbReads.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { AttemptResultModel, DeliveryModel } from '../../src/webhooks/model.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

describe('delivery log reads', () => {
  const { rt, module } = useWebhooksRuntime({}, { monitorCommands: true });
  let sink: Sink;
  let tenant: Tenant;
  let hookId: string;
  const api = () => adminApi(rt);

  /** The page's body and the reads it made: [collection, query]. */
  async function page(query: string): Promise<{ body: any; reads: Array<[string, any]> }> {
    const { result: res, reads } = await readsSent(() => api()('get', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries?${query}`));
    expect(res.status).toBe(200);
    return { body: res.body, reads };
  }
  const byId = (reads: Array<[string, any]>) => reads.filter(([c, q]) => c.startsWith('webhookdeliveryattempt') && q.deliveryId);
  const shown = (body: any) => body.deliveries.map((d: any) => [d.id, d.status, d.attempts.map((a: any) => [a.number, a.status, a.httpStatus])]);

  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
    // Another hook's deliveries beside this one's: the range must not show them.
    const other = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/other` });
    await api()('put', `/bots/${tenant.botId}/webhooks/${other.body.webhook.id}/enabled`, { enabled: true });
    const created = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/log` });
    hookId = created.body.webhook.id;
    await api()('put', `/bots/${tenant.botId}/webhooks/${hookId}/enabled`, { enabled: true });
    for (let i = 0; i < 5; i++) {
      await rt.runtime.ctx.events.emit({ teamId: tenant.teamId, botId: tenant.botId, type: 'conversation.started', payload: { conversation: { id: crypto.randomUUID() } } });
    }
    await module.state().dispatcher.idle();
    await module.state().firstAttempts.drained();
  });
  afterAll(() => sink?.close());

  it('reads the results of a page of fresh rows beside it, on the first page and after a cursor', async () => {
    expect(await DeliveryModel.countDocuments({ webhookId: hookId, fresh: true })).toBe(5);
    const first = await page('limit=3');
    expect(shown(first.body)).toEqual(first.body.deliveries.map((d: any) => [d.id, 'delivered', [[1, 'succeeded', 200]]]));
    expect(byId(first.reads)).toEqual([]);
    // The hook's results from its lowest `_id` (a bound of one type: no sort probe on FerretDB).
    expect(first.reads.filter(([c]) => c === 'webhookdeliveryattemptresults').map(([, q]) => [Object.keys(q), q.webhookId, q._id.$gte])).toEqual([[['webhookId', '_id'], hookId, '']]);

    const next = await page(`limit=3&cursor=${first.body.pagination.last}`);
    expect(next.body.deliveries).toHaveLength(2);
    expect(shown(next.body)).toEqual(next.body.deliveries.map((d: any) => [d.id, 'delivered', [[1, 'succeeded', 200]]]));
    expect(byId(next.reads)).toEqual([]);
  });

  it('reads by id the rows whose results the range did not hold: a row no longer fresh, and rows past the range', async () => {
    const all = await page('limit=100');
    const [retried] = all.body.deliveries;
    // A resend: the row is no longer fresh, so its attempt rows and results are read by id.
    expect((await api()('post', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries/${retried.id}/resend`)).status).toBe(202);
    await waitFor(async () => (await page('limit=5')).body.deliveries[0].attempts.length === 2 && (await page('limit=5')).body.deliveries[0].status === 'delivered');
    const resent = await page('limit=5');
    expect(resent.body.deliveries[0].attempts.map((a: any) => [a.number, a.status])).toEqual([
      [1, 'succeeded'],
      [2, 'succeeded'],
    ]);
    expect(shown(resent.body).slice(1)).toEqual(shown(all.body).slice(1));
    // The resent row's two results take two of the range's five places: the page's last row is past it.
    const reads = byId(resent.reads).map(([c, q]) => [c, q.deliveryId.$in]);
    expect(reads).toEqual(expect.arrayContaining([['webhookdeliveryattempts', [retried.id]]]));
    expect(reads).toContainEqual(['webhookdeliveryattemptresults', [retried.id, all.body.deliveries[4].id]]);
  });
});
