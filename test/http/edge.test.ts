// The public API edge: prefix, versions, key auth, body limits and the error shape.
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { modules } from '../../src/modules.ts';
import type { DomainModule } from '../../src/module.ts';
import { validate } from '../../src/http/validate.ts';
import { rotateChannelSecret, setChannelEnabled } from '../../src/platform/service.ts';
import { TeamModel } from '../../src/platform/model.ts';
import { collectionsRead } from '../helpers/dbReads.ts';

// A fixture module with one public route, so the edge is tested independently of the domains.
const echoModule: DomainModule = {
  name: 'echo',
  publicRoutes(router) {
    router.post('/echo', validate(z.object({ text: z.string() })), (c) => {
      c.body = { success: true, text: c.state.input.text, bot: c.state.botId, version: c.state.apiVersion };
    });
    router.get('/tenant', async (c) => {
      const [first, again] = [await c.state.tenant(), await c.state.tenant()];
      c.body = { success: true, team: first.team.name, chatTokens: again.team.usage?.chatTokens ?? 0 };
    });
  },
};

describe('public API edge', () => {
  const rt = useTestRuntime({ modules: [...modules, echoModule], env: { BODY_LIMIT: '2kb' }, worker: false, monitorCommands: true });
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('answers an authenticated request on both versions', async () => {
    for (const version of ['1.0', '2.0'] as const) {
      const res = await publicApi(rt, tenant, version)('post', '/echo', { text: 'hi' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, text: 'hi', bot: tenant.botId, version });
    }
  });

  it('gives 404 for an unknown channel', async () => {
    const res = await publicApi(rt, { ...tenant, channelId: '00000000-0000-4000-8000-000000000000' })('post', '/echo', { text: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'channel_not_found' });
  });

  it('gives 404 for a channel id that is not a UUID', async () => {
    const res = await publicApi(rt, { ...tenant, channelId: 'not-a-uuid' })('post', '/echo', { text: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('gives 403 for a wrong key and for a missing key', async () => {
    const wrong = await publicApi(rt, { ...tenant, secretKey: 'sk_wrong' })('post', '/echo', { text: 'x' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ success: false, code: 'forbidden' });
    const missing = await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/echo`).send({ text: 'x' });
    expect(missing.status).toBe(403);
  });

  it("never opens a channel with another channel's key", async () => {
    const other = await createTenant();
    const res = await publicApi(rt, { ...tenant, secretKey: other.secretKey })('post', '/echo', { text: 'x' });
    expect(res.status).toBe(403);
  });

  it('gives 404 for a version other than 1.0 and 2.0', async () => {
    for (const version of ['3.0', '2', 'v2']) {
      const res = await rt
        .http()
        .post(`/api/public/channels/${tenant.channelId}/${version}/echo`)
        .set('X-API-Secret-Key', tenant.secretKey)
        .send({ text: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
    }
  });

  it('gives 404 once the channel is turned off, and serves it again when turned on', async () => {
    const t = await createTenant();
    await setChannelEnabled(t.channelId, false);
    expect((await publicApi(rt, t)('post', '/echo', { text: 'x' })).status).toBe(404);
    await setChannelEnabled(t.channelId, true);
    expect((await publicApi(rt, t)('post', '/echo', { text: 'x' })).status).toBe(200);
  });

  it('reads only the channel for a route that uses the ids, and the bot and team once for a route that uses them', async () => {
    const api = publicApi(rt, tenant);
    expect(await collectionsRead(async () => expect((await api('post', '/echo', { text: 'x' })).status).toBe(200))).toEqual(['apichannels']);
    expect(await collectionsRead(async () => expect((await api('get', '/tenant')).status).toBe(200))).toEqual(['apichannels', 'bots', 'teams']);
  });

  it("reads the team as it is now on every request: another process's usage count is seen at once", async () => {
    const t = await createTenant();
    expect((await publicApi(rt, t)('get', '/tenant')).body.chatTokens).toBe(0);
    await TeamModel.updateOne({ id: t.teamId }, { $set: { 'usage.chatTokens': 42 } });
    expect((await publicApi(rt, t)('get', '/tenant')).body.chatTokens).toBe(42);
  });

  it('refuses a rotated key on the very next request and serves the new one', async () => {
    const t = await createTenant();
    expect((await publicApi(rt, t)('post', '/echo', { text: 'x' })).status).toBe(200);
    const { secretKey } = await rotateChannelSecret(t.channelId);
    const old = await publicApi(rt, t)('post', '/echo', { text: 'x' });
    expect(old.status).toBe(403);
    expect(old.body).toMatchObject({ success: false, code: 'forbidden' });
    expect((await publicApi(rt, { ...t, secretKey })('post', '/echo', { text: 'x' })).status).toBe(200);
  });

  it('gives 413 for a body over the limit', async () => {
    const res = await publicApi(rt, tenant)('post', '/echo', { text: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'payload_too_large' });
  });

  it('gives 400 for malformed JSON', async () => {
    const res = await publicApi(rt, tenant)('post', '/echo').set('Content-Type', 'application/json').send('{"text": "x",');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_json' });
  });

  it('gives 400 for a __proto__ key in the body and leaves Object.prototype alone', async () => {
    const res = await publicApi(rt, tenant)('post', '/echo')
      .set('Content-Type', 'application/json')
      .send('{"text":"x","__proto__":{"polluted":true}}');
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives 400 for JSON nested deeper than the limit', async () => {
    const deep = '['.repeat(100) + ']'.repeat(100);
    const res = await publicApi(rt, tenant)('post', '/echo').set('Content-Type', 'application/json').send(`{"text":"x","d":${deep}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'json_too_deep' });
  });

  it('gives 400 naming the field for a wrong type, including injection objects', async () => {
    for (const text of [1, { $ne: null }, ['a']]) {
      const res = await publicApi(rt, tenant)('post', '/echo', { text });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/^text:/);
    }
  });

  it('answers /healthz and /readyz', async () => {
    expect((await rt.http().get('/healthz')).body).toEqual({ success: true, status: 'ok' });
    const ready = await rt.http().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: true, scheduler: true });
  });

  it('gives a JSON 404 for unknown paths', async () => {
    const res = await rt.http().get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });
});
