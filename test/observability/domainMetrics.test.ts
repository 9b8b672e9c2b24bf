// /metrics counts what the domains do: syncs by outcome, storage tokens charged, gateway intake by
// result and rule actions by outcome. Read through the endpoint, as Prometheus would.
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { RowContentModel } from '../../src/datasources/model.ts';
import { getTeam } from '../../src/platform/service.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { sendSigned } from '../gateway/support/signing.ts';

const SECRET = 'metrics-secret-0123456789';
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] } } },
  { 'log.json': { name: 'log-started', events: ['conversation.started'], actions: [{ type: 'log', message: "'started ' & payload.conversation.id" }] } },
);

describe('/metrics for the domains', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });

  /** The value of one series of the exposition, 0 when it has not been written yet. */
  async function series(name: string, labels: Record<string, string>): Promise<number> {
    const text = (await rt.http().get('/metrics').expect(200)).text;
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }

  /**
   * Waits until a counter has moved from `before`. The sync counts its outcome when its own write of
   * the state returns, and a poll on another connection can see that state a moment earlier.
   */
  async function metricMoved(name: string, labels: Record<string, string>, before: number): Promise<void> {
    await waitFor(async () => (await series(name, labels)) !== before);
  }

  it('counts a successful sync and the storage tokens it charged', async () => {
    const tenant = await createTenant();
    const api = publicApi(rt, tenant);
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: '# Returns\n\nThirty days to return any item.' }] }).expect(200);
    const [successBefore, tokensBefore] = [await series('relay_syncs_total', { outcome: 'success' }), await series('relay_tokens_used_total', { kind: 'storage' })];

    expect((await syncAndWait(api, id)).state).toBe('synced');
    const charged = (await getTeam(tenant.teamId)).usage?.storageTokens ?? 0;
    expect(charged).toBeGreaterThan(0);
    await metricMoved('relay_syncs_total', { outcome: 'success' }, successBefore);
    expect(await series('relay_syncs_total', { outcome: 'success' })).toBe(successBefore + 1);
    expect(await series('relay_tokens_used_total', { kind: 'storage' })).toBe(tokensBefore + charged);
  });

  it('counts a failed sync under failure', async () => {
    const api = publicApi(rt, await createTenant());
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'Alpha' }] }).expect(200);
    const [row] = await rowIds(api, id);
    await RowContentModel.updateOne({ _id: row!.id }, { $set: { data: Buffer.from('not deflate data') } });
    const before = await series('relay_syncs_total', { outcome: 'failure' });

    expect((await syncAndWait(api, id)).state).toBe('sync_error');
    await metricMoved('relay_syncs_total', { outcome: 'failure' }, before);
    expect(await series('relay_syncs_total', { outcome: 'failure' })).toBe(before + 1);
  });

  it('counts gateway deliveries as accepted, duplicate and rejected, and the rule action outcome', async () => {
    const labels = (result: string) => ({ source: 'relay', result });
    const before = { accepted: await series('relay_gateway_deliveries_total', labels('accepted')), duplicate: await series('relay_gateway_deliveries_total', labels('duplicate')), rejected: await series('relay_gateway_deliveries_total', labels('rejected')) };
    const ruleBefore = await series('relay_gateway_rule_actions_total', { rule: 'log-started', action: 'log', outcome: 'succeeded' });

    const payload = { event: 'conversation.started', timestamp: new Date().toISOString(), conversation: { id: 'c-1', botId: 'b', botName: 'Bot', channelType: 'api' } };
    const firstRequest = sendSigned(rt, 'relay', SECRET, payload, { event: 'conversation.started' });
    const first = await firstRequest;
    expect(first.status).toBeLessThan(300);
    const again = await sendSigned(rt, 'relay', SECRET, payload, { event: 'conversation.started', deliveryId: firstRequest.deliveryId });
    expect(again.body.duplicate).toBe(true);
    await sendSigned(rt, 'relay', 'wrong-secret-0123456789', payload, { event: 'conversation.started' }).expect(401);

    expect(await series('relay_gateway_deliveries_total', labels('accepted'))).toBe(before.accepted + 1);
    expect(await series('relay_gateway_deliveries_total', labels('duplicate'))).toBe(before.duplicate + 1);
    expect(await series('relay_gateway_deliveries_total', labels('rejected'))).toBe(before.rejected + 1);
    await waitFor(async () => (await series('relay_gateway_rule_actions_total', { rule: 'log-started', action: 'log', outcome: 'succeeded' })) === ruleBefore + 1);
  });
});
