// Hook configuration through the admin API: create (disabled, with a secret), read, update,
// enable, regenerate, delete; validation, UUIDs and bot scoping.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { checkTargetUrl } from '../../src/webhooks/service.ts';
import { AppError } from '../../src/http/errors.ts';
import { readsSent } from '../helpers/dbReads.ts';

const DS1 = '11111111-1111-4111-8111-111111111111';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('webhook configuration', () => {
  const rt = useTestRuntime({ worker: false, monitorCommands: true });
  let tenant: Tenant;
  let other: Tenant;
  const api = () => adminApi(rt);
  beforeAll(async () => {
    tenant = await createTenant();
    other = await createTenant({ bot: 'Other bot' });
  });
  const hooksPath = (t: Tenant = tenant) => `/bots/${t.botId}/webhooks`;

  it('creates a hook disabled and returns its secret once', async () => {
    const res = await api()('post', hooksPath(), { type: 'sync.success', url: 'https://example.com/hook', dataSourceIds: [DS1] });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.webhook).toMatchObject({ type: 'sync.success', enabled: false, url: 'https://example.com/hook', dataSourceIds: [DS1] });
    expect(res.body.webhook.customPayload).toEqual({ enabled: false, method: 'POST', headers: {}, body: '' });
    const read = await api()('get', `${hooksPath()}/${res.body.webhook.id}`);
    expect(read.status).toBe(200);
    expect(read.body.webhook).toEqual(res.body.webhook);
    expect(JSON.stringify(read.body)).not.toContain(res.body.secret);
  });

  it('enables, updates and disables a hook', async () => {
    const { body } = await api()('post', hooksPath(), { type: 'conversation.started', url: 'https://example.com/a' });
    const path = `${hooksPath()}/${body.webhook.id}`;
    expect((await api()('put', `${path}/enabled`, { enabled: true })).body.webhook.enabled).toBe(true);
    const custom = { enabled: true, method: 'PUT', headers: { 'X-Conv': '{{conversation.id}}' }, body: '{"id":"{{conversation.id}}"}' };
    const updated = await api()('patch', path, { url: 'https://example.com/b/{{conversation.id}}', customPayload: custom });
    expect(updated.status).toBe(200);
    expect(updated.body.webhook).toMatchObject({ enabled: true, url: 'https://example.com/b/{{conversation.id}}', customPayload: custom });
    expect((await api()('patch', path, { enabled: false })).body.webhook.enabled).toBe(false);
  });

  it('gives a new secret on regeneration', async () => {
    const { body } = await api()('post', hooksPath(), { type: 'sync.failure', url: 'https://example.com/a' });
    const res = await api()('post', `${hooksPath()}/${body.webhook.id}/secret`);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(body.secret);
  });

  it('lists hooks of the bot only, paged', async () => {
    await api()('post', hooksPath(other), { type: 'sync.success', url: 'https://example.com/other' });
    const page = await api()('get', `${hooksPath()}?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.webhooks).toHaveLength(2);
    expect(page.body.pagination.total).toBeGreaterThanOrEqual(3);
    const next = await api()('get', `${hooksPath()}?limit=100&cursor=${page.body.pagination.last}`);
    expect(next.body.webhooks.map((h: { botId: string }) => h.botId)).toEqual(next.body.webhooks.map(() => tenant.botId));
    expect(next.body.webhooks.some((h: { url: string }) => h.url === 'https://example.com/other')).toBe(false);
  });

  it("answers 404 for another bot's hook and for unknown ids", async () => {
    const { body } = await api()('post', hooksPath(other), { type: 'sync.success', url: 'https://example.com/x' });
    for (const [method, suffix] of [
      ['get', ''],
      ['patch', ''],
      ['delete', ''],
      ['post', '/secret'],
      ['post', '/test'],
      ['get', '/deliveries'],
      ['get', `/deliveries?cursor=${UNKNOWN}`], // the hook's 404 before the cursor's 400
    ] as const) {
      const res = await api()(method, `${hooksPath()}/${body.webhook.id}${suffix}`, method === 'patch' ? { enabled: true } : undefined);
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'webhook_not_found' });
    }
    expect((await api()('post', `/bots/${UNKNOWN}/webhooks`, { type: 'sync.success', url: 'https://example.com' })).status).toBe(404);
    expect((await api()('get', `${hooksPath()}/${body.webhook.id}/deliveries/${UNKNOWN}`)).status).toBe(404);
  });

  it('refuses ids that are not UUIDs with 400', async () => {
    expect((await api()('get', `${hooksPath()}/not-a-uuid`)).status).toBe(400);
    expect((await api()('get', `/bots/${encodeURIComponent('{"$ne":null}')}/webhooks`)).status).toBe(400);
    const res = await api()('post', hooksPath(), { type: 'sync.success', url: 'https://example.com', dataSourceIds: [{ $ne: null }] });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('refuses bad input with 400 and a message naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ url: 'https://example.com' }, 'type'],
      [{ type: 'sync.started', url: 'https://example.com' }, 'type'],
      [{ type: 'sync.success' }, 'url'],
      [{ type: 'sync.success', url: 'example.com/hook' }, 'url'],
      [{ type: 'sync.success', url: 'ftp://example.com/hook' }, 'url'],
      [{ type: 'conversation.started', url: 'https://example.com', dataSourceIds: [DS1] }, 'dataSourceIds'],
      [{ type: 'sync.success', url: 'https://example.com', customPayload: { enabled: true, method: 'HEAD' } }, 'customPayload.method'],
      [{ type: 'sync.success', url: 'https://example.com', customPayload: { enabled: true, headers: { 'X-A': 1 } } }, 'customPayload.headers'],
      [{ type: 'sync.success', url: 'https://example.com', customPayload: { enabled: true, headers: { 'X-A': 'a\r\nX-B: b' } } }, 'customPayload.headers'],
      [{ type: 'sync.success', url: 'https://example.com', customPayload: { enabled: true, body: { a: 1 } } }, 'customPayload.body'],
    ];
    for (const [body, field] of cases) {
      const res = await api()('post', hooksPath(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false });
      expect(res.body.message).toContain(field);
    }
  });

  it('drops the data source scope when a hook moves to a conversation type', async () => {
    const { body } = await api()('post', hooksPath(), { type: 'sync.success', url: 'https://example.com', dataSourceIds: [DS1] });
    const res = await api()('patch', `${hooksPath()}/${body.webhook.id}`, { type: 'conversation.claimed' });
    expect(res.body.webhook).toMatchObject({ type: 'conversation.claimed', dataSourceIds: [] });
  });

  it("lists an empty delivery log without reading any other hook's attempts", async () => {
    const { body } = await api()('post', hooksPath(), { type: 'sync.success', url: 'https://example.com' });
    const { result: res, reads: calls } = await readsSent(() => api()('get', `${hooksPath()}/${body.webhook.id}/deliveries`));
    expect(res.body).toMatchObject({ success: true, deliveries: [] });
    expect(calls.filter(([c]) => c === 'webhookdeliveryattempts')).toEqual([]);
    // Only the hook's own range of results, read beside the page.
    expect(calls.filter(([c]) => c === 'webhookdeliveryattemptresults').map(([, q]: [string, any]) => [q.webhookId, q._id.$gte])).toEqual([[body.webhook.id, '']]);
  });

  it('deletes a hook', async () => {
    const { body } = await api()('post', hooksPath(), { type: 'sync.success', url: 'https://example.com' });
    expect((await api()('delete', `${hooksPath()}/${body.webhook.id}`)).body).toEqual({ success: true });
    expect((await api()('get', `${hooksPath()}/${body.webhook.id}`)).status).toBe(404);
  });
});

describe('target URL rule', () => {
  const rejects = (url: string, allowHttp: boolean) => {
    try {
      checkTargetUrl(url, allowHttp);
      return null;
    } catch (err) {
      return (err as AppError).code;
    }
  };

  it('needs https:// unless OUTBOUND_ALLOW_PRIVATE admits http://', () => {
    expect(rejects('https://example.com/hook', false)).toBeNull();
    expect(rejects('https://example.com/{{conversation.id}}?x={{event}}', false)).toBeNull();
    expect(rejects('http://example.com/hook', false)).toBe('validation_failed');
    expect(rejects('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(rejects('{{scheme}}://example.com', true)).toBe('validation_failed');
    expect(rejects('https://', false)).toBe('validation_failed');
    expect(rejects('/relative', false)).toBe('validation_failed');
  });
});
