// Actions end to end through the intake: resync through the public API client (a real local
// server speaking its endpoints), http to a local sink with retries that never repeat a succeeded
// action, email to the .eml outbox, replay as a new run, and the per-hour resync cap.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles, type GatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { startPublicApiStub, type PublicApiStub } from './support/publicApiStub.ts';
import { startSink, type Sink } from './support/servers.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'actions-secret-0123456789';
const env: Record<string, string> = {};
let files: GatewayFiles;
let api: PublicApiStub;
let sink: Sink;

const done = (status: string) => status === 'succeeded' || status === 'failed';

describe('gateway actions', () => {
  beforeAll(async () => {
    api = await startPublicApiStub(12, (i) => (i === 3 || i === 11 ? 'sync_error' : 'synced'));
    sink = await startSink();
    const apiConfig = { baseUrl: api.baseUrl, channelId: api.channelId, secretKey: 'env:GATEWAY_SECRET_API' };
    files = gatewayFiles(
      {
        sources: {
          relay: { secrets: [SECRET], api: apiConfig, resync: { maxAttemptsPerHour: 1 } },
          mapped: { secrets: [SECRET], api: apiConfig },
        },
        vars: { sinkUrl: `${sink.url}/crm`, crmToken: 'env:GATEWAY_SECRET_CRM' },
      },
      {
        'resync.json': { name: 'resync', sources: ['relay'], events: ['sync.failure'], actions: [{ type: 'resync' }] },
        'resync-mapped.json': {
          name: 'resync-mapped',
          sources: ['mapped'],
          events: ['sync.failure'],
          actions: [{ type: 'resync', map: { 'Product catalog': api.dataSources[5]!.id } }],
        },
        'crm.json': {
          name: 'crm',
          events: ['conversation.started'],
          actions: [
            { type: 'log', message: "'before the call'" },
            { type: 'http', method: 'PUT', url: "vars.sinkUrl & '/' & payload.conversation.id", headers: { Authorization: "'Bearer ' & vars.crmToken" }, body: "{ 'id': payload.conversation.id }" },
          ],
        },
        'mail.json': { name: 'mail', events: ['conversation.escalated'], actions: [{ type: 'email', to: "'ops@example.com'", subject: "'Escalated'", text: "'user ' & payload.userEmail" }] },
      },
      { GATEWAY_SECRET_API: api.secretKey, GATEWAY_SECRET_CRM: 'crm-token' },
    );
    Object.assign(env, files.env);
  });
  afterAll(async () => {
    await api?.close();
    await sink?.close();
  });
  const rt = useTestRuntime({ env, ...modulesWithGateway() });
  const deliveryWhenDone = (id: string) =>
    waitFor(async () => {
      const d = (await adminApi(rt)('get', `/gateway/deliveries/${id}`)).body.delivery;
      const actions = d.rules.flatMap((r: { actions: Array<{ status: string }> }) => r.actions);
      return d.processedAt && actions.length > 0 && actions.every((a: { status: string }) => done(a.status)) && d;
    });

  it('re-syncs the data sources in sync_error on a sync failure, through the public API', async () => {
    const res = await sendSigned(rt, 'relay', SECRET, { success: false, reason: 'boom', bot: 'Help bot', dataSource: 'Product catalog' });
    const d = await deliveryWhenDone(res.body.id);
    const action = d.rules[0].actions[0];
    expect(action.status).toBe('succeeded');
    expect(action.result.started.sort()).toEqual([api.dataSources[3]!.id, api.dataSources[11]!.id].sort());
    expect(api.syncCalls.sort()).toEqual([api.dataSources[3]!.id, api.dataSources[11]!.id].sort());
    expect(api.dataSources[3]!.state).toBe('syncing');
  });

  it('caps re-sync attempts per data source per hour', async () => {
    api.dataSources[3]!.state = 'sync_error';
    api.dataSources[11]!.state = 'sync_error';
    const calls = api.syncCalls.length;
    const res = await sendSigned(rt, 'relay', SECRET, { success: false, reason: 'again', bot: 'Help bot', dataSource: 'Product catalog' });
    const d = await deliveryWhenDone(res.body.id);
    expect(d.rules[0].actions[0].result.capped).toHaveLength(2);
    expect(api.syncCalls.length).toBe(calls);
  });

  it('re-syncs the data source a rule maps by name, whatever its state', async () => {
    const res = await sendSigned(rt, 'mapped', SECRET, { success: false, reason: 'x', bot: 'Help bot', dataSource: 'Product catalog' });
    const d = await deliveryWhenDone(res.body.id);
    expect(d.rules[0].actions[0].spec).toMatchObject({ via: 'map', dataSourceId: api.dataSources[5]!.id });
    expect(d.rules[0].actions[0].result.started).toEqual([api.dataSources[5]!.id]);
  });

  it('retries a failed http call without repeating the action that already succeeded', async () => {
    sink.statuses = [503, 200];
    const before = sink.requests.length;
    const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: 'c-1' } });
    const d = await deliveryWhenDone(res.body.id);
    const [log, http] = d.rules[0].actions;
    expect(log).toMatchObject({ type: 'log', status: 'succeeded', attempts: 1 });
    expect(http).toMatchObject({ type: 'http', status: 'succeeded', attempts: 2 });
    expect(http.spec.headers.Authorization).toBe('[redacted]');
    const calls = sink.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ method: 'PUT', url: '/crm/c-1', body: '{"id":"c-1"}' });
    expect(calls[1]!.headers.authorization).toBe('Bearer crm-token');
    expect(calls[1]!.headers['content-type']).toBe('application/json');
  });

  it('gives up on a client error at once and records it', async () => {
    sink.statuses = [400];
    const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: 'c-2' } });
    const d = await deliveryWhenDone(res.body.id);
    expect(d.rules[0].actions[1]).toMatchObject({ status: 'failed', attempts: 1, error: 'HTTP 400' });
    sink.statuses = [200];
  });

  it('replays a delivery as a new run with its own outcomes', async () => {
    const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: 'c-3' } });
    await deliveryWhenDone(res.body.id);
    const before = sink.requests.length;
    const replay = await adminApi(rt)('post', `/gateway/deliveries/${res.body.id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body.run).toBe(1);
    const d = await waitFor(async () => {
      const x = (await adminApi(rt)('get', `/gateway/deliveries/${res.body.id}`)).body.delivery;
      return x.processedRun === 1 && x.rules.filter((r: { run: number }) => r.run === 1).every((r: { actions: Array<{ status: string }> }) => r.actions.every((a) => done(a.status))) && x;
    });
    expect(d.rules.map((r: { run: number }) => r.run)).toEqual([0, 1]);
    expect(sink.requests.length).toBe(before + 1);
    expect((await adminApi(rt)('post', '/gateway/deliveries/00000000-0000-4000-8000-000000000000/replay')).status).toBe(404);
    expect((await adminApi(rt)('post', '/gateway/deliveries/not-a-uuid/replay')).status).toBe(400);
  });

  it('writes email to the outbox as an .eml file when no SMTP server is configured', async () => {
    const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.escalated', userEmail: 'ada@example.org', conversation: { id: 'c-4' } });
    const d = await deliveryWhenDone(res.body.id);
    const action = d.rules[0].actions[0];
    expect(action.status).toBe('succeeded');
    expect(action.result.file).toBe(path.join(rt.config.dataDir, 'outbox', `${action.id}.eml`));
    expect(existsSync(action.result.file)).toBe(true);
    const eml = readFileSync(action.result.file, 'utf8');
    expect(eml).toMatch(/^To: ops@example\.com$/m);
    expect(eml).toContain('user ada@example.org');
  });

  it('lists deliveries with their rule and action outcomes, filtered by source', async () => {
    const list = await adminApi(rt)('get', '/gateway/deliveries?source=mapped');
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.deliveries[0].rules[0]).toMatchObject({ rule: 'resync-mapped', result: 'matched' });
    expect(list.body.deliveries[0].body).toBeUndefined();
    const rules = await adminApi(rt)('get', '/gateway/rules');
    expect(rules.body.rules.map((r: { name: string }) => r.name).sort()).toEqual(['crm', 'mail', 'resync', 'resync-mapped']);
  });
});
