// The console's mirror of the public API (/api/admin/bots/:botId/channels/:channelId/public/:version):
// the same routes, opened by the admin token and a channel of the named bot, with no channel key.
// Nothing about a channel changes, so integrators' keys keep working.
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { TEST_ADMIN_TOKEN, useListeningApp, useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { authenticateChannel } from '../../src/platform/service.ts';
import { ApiChannelModel } from '../../src/platform/model.ts';
import { readSse } from '../chat/support.ts';

const mirror = (botId: string, channelId: string, version = '2.0') => `/api/admin/bots/${botId}/channels/${channelId}/public/${version}`;

describe('the console mirror of the public API', () => {
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let other: Tenant;
  let secretHash: string;
  const asAdmin = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object) => {
    const req = rt.http()[method](`${mirror(tenant.botId, tenant.channelId)}${path}`).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
    return body === undefined ? req : req.send(body);
  };

  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Mirrored' });
    other = await createTenant({ bot: 'Someone else' });
    secretHash = (await ApiChannelModel.findOne({ id: tenant.channelId }).lean())!.secretHash;
  });

  it('runs the public data-source routes with the admin token alone, on the same data the key sees', async () => {
    const created = await asAdmin('post', '/data-sources').expect(200);
    const dataSourceId: string = created.body.dataSource.id;
    await asAdmin('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'faq', content: '# FAQ\n\nShipping takes two days.' }] }).expect(200);
    const listed = await asAdmin('post', '/data-sources/row/list', { dataSourceId }).expect(200);
    expect(listed.body.dataSourceRows.map((r: { name: string }) => r.name)).toEqual(['faq']);
    const row = await asAdmin('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${listed.body.dataSourceRows[0].id}`).expect(200);
    expect(row.body.dataSourceRow.content).toContain('two days');

    // An integrator with the channel's key reads what the console wrote.
    const viaKey = await publicApi(rt, tenant)('post', '/data-sources/list', {}).expect(200);
    expect(viaKey.body.dataSources.map((d: { id: string }) => d.id)).toEqual([dataSourceId]);
    // Bad input is the public API's own 400, not a 500.
    const bad = await asAdmin('post', '/data-sources/row', { dataSourceId: 'nope' }).expect(400);
    expect(bad.body).toMatchObject({ success: false, code: 'validation_failed' });
  });

  it('streams a 2.0 reply as server-sent events through the mirror', async () => {
    const res = await fetch(`${app.baseUrl}${mirror(tenant.botId, tenant.channelId)}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_TOKEN}`, accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'How long does shipping take?', stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const conversationId = res.headers.get('x-conversation-id');
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const { raw, chunks } = await readSse(res);
    expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(chunks.map((c) => c.type)).toEqual(expect.arrayContaining(['start', 'text-delta', 'finish']));
    // The conversation belongs to the channel, as if the key had been used.
    const history = await publicApi(rt, tenant)('post', '/messages', { conversationId }).expect(200);
    expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('refuses a caller without the admin token, even one holding the channel key, before reading the body', async () => {
    const path = `${mirror(tenant.botId, tenant.channelId)}/data-sources/list`;
    for (const req of [
      rt.http().post(path).send({}),
      rt.http().post(path).set('Authorization', 'Bearer wrong-token').send({}),
      rt.http().post(path).set('X-API-Secret-Key', tenant.secretKey).send({}),
      rt.http().post(path).set('Authorization', `Bearer ${tenant.secretKey}`).send({}),
      rt.http().post(path).set('Content-Type', 'application/json').send('{not json'),
    ]) {
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: 'unauthorized' });
    }
  });

  it('answers 404 for a channel that is unknown, malformed, off or of another bot, and for an unknown version', async () => {
    const cases = [
      mirror(tenant.botId, randomUUID()),
      mirror(tenant.botId, 'not-a-uuid'),
      mirror(other.botId, tenant.channelId),
      mirror(randomUUID(), tenant.channelId),
      mirror('not-a-bot', tenant.channelId),
      mirror(tenant.botId, tenant.channelId, '3.0'),
    ];
    for (const prefix of cases) {
      const res = await rt.http().post(`${prefix}/data-sources/list`).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`).send({});
      expect(res.status, prefix).toBe(404);
      expect(res.body.success).toBe(false);
    }
    const off = await adminApi(rt)('post', '/channels', { botId: tenant.botId, name: 'off' }).expect(201);
    await adminApi(rt)('put', `/channels/${off.body.channel.channelId}/enabled`, { enabled: false }).expect(200);
    const res = await rt.http().post(`${mirror(tenant.botId, off.body.channel.channelId)}/data-sources/list`).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`).send({});
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('channel_not_found');
  });

  it('leaves the public API and the channel key as they were', async () => {
    await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/data-sources/list`).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`).send({}).expect(403);
    expect((await ApiChannelModel.findOne({ id: tenant.channelId }).lean())!.secretHash).toBe(secretHash);
    expect(await authenticateChannel(tenant.channelId, tenant.secretKey)).toMatchObject({ id: tenant.channelId });
  });
});
