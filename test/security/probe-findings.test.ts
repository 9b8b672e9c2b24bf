// The smaller findings of the black-box probe (issue 21, F3, F5, F6 and the list cursors), each
// checked through the real app: what a hostile or confused client sends, and the answer it gets.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useListeningApp, useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';

/** Sends the request head only and resolves with the status that comes back before any body byte. */
function headOnly(baseUrl: string, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; req: http.ClientRequest }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, req }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('black-box probe findings', () => {
  const rt = useTestRuntime({ worker: false });
  const server = useListeningApp(rt);
  let tenant: Tenant;
  const api = () => publicApi(rt, tenant);

  beforeAll(async () => {
    tenant = await createTenant({ plan: 'pro' });
  });

  describe('F3: keys that cannot be stored', () => {
    const hostileKeys = ['a\u0000b', '$where', 'a.b', '\u0000'];

    it('refuses hostile userData keys with 400 on /conversation and on /message, and stores nothing', async () => {
      for (const key of hostileKeys) {
        const userData = { [key]: 'v' };
        const started = await api()('post', '/conversation', { userData });
        expect(started.status, key).toBe(400);
        expect(started.body.success).toBe(false);
        const sent = await api()('post', '/message', { message: 'hi', userData });
        expect(sent.status, key).toBe(400);
        expect(sent.body.success).toBe(false);
      }
      const list = await api()('post', '/conversation/list', {});
      expect(list.body.pagination?.total ?? list.body.conversations?.length ?? 0).toBe(0);
    });

    it('refuses hostile custom-payload header names on webhooks with 400', async () => {
      for (const key of ['$x', 'a\u0000b', 'X-a.b']) {
        const res = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, {
          type: 'conversation.started',
          url: 'https://example.com/hook',
          customPayload: { enabled: true, headers: { [key]: 'v' }, body: '{}' },
        });
        expect(res.status, key).toBe(400);
        expect(res.body.success).toBe(false);
      }
    });
  });

  describe('F5: methods', () => {
    it('answers a wrong method on a route with 405 in the JSON envelope and an Allow header', async () => {
      const res = await rt.http().get(`/api/public/channels/${tenant.channelId}/2.0/message`);
      expect(res.status).toBe(405);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toMatchObject({ success: false, code: 'method_not_allowed' });
      expect(res.headers.allow).toContain('POST');
    });

    it('answers methods the service does not implement with 501 in the JSON envelope', async () => {
      for (const method of ['TRACE', 'PROPFIND']) {
        const res = await headOnly(server.baseUrl, method, '/api/admin/teams', {});
        res.req.end();
        expect(res.status, method).toBe(501);
        expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'not_implemented' });
      }
    });
  });

  describe('F6: authentication before the body', () => {
    it('answers an unauthenticated caller before reading a body that never arrives', async () => {
      const admin = await headOnly(server.baseUrl, 'POST', '/api/admin/teams', { 'content-type': 'application/json', 'content-length': '1000000' });
      expect(admin.status).toBe(401);
      admin.req.destroy();
      const pub = await headOnly(server.baseUrl, 'POST', `/api/public/channels/${tenant.channelId}/2.0/conversation`, { 'content-type': 'application/json', 'content-length': '1000000' });
      expect(pub.status).toBe(403);
      pub.req.destroy();
    });

    it('does not parse or size-check the body of an unauthenticated caller', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(2_000_000) });
      const tooBig = await rt.http().post('/api/admin/teams').set('content-type', 'application/json').send(big);
      expect(tooBig.status).toBe(401);
      const broken = await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/conversation`).set('content-type', 'application/json').send('{"oops":');
      expect(broken.status).toBe(403);
      // The same bodies, authenticated, get the body errors.
      const parsed = await rt.http().post('/api/admin/teams').set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`).set('content-type', 'application/json').send(big);
      expect(parsed.status).toBe(413);
    });
  });

  describe('errors that say what is wrong', () => {
    it('answers a JSON body sent as another content type with 415', async () => {
      const res = await api()('post', '/message').set('content-type', 'text/plain').send('{"message":"hi"}');
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ success: false, code: 'unsupported_media_type' });
      // A bodiless POST needs no content type.
      const bare = await api()('post', '/data-sources');
      expect(bare.status).toBe(200);
    });

    it('names a missing X-API-Secret-Key instead of calling it a mismatch', async () => {
      const res = await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/data-sources/list`).send({});
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/X-API-Secret-Key header is required/);
      const wrong = await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/data-sources/list`).set('X-API-Secret-Key', 'nope').send({});
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toMatch(/does not match/);
    });

    it('sends a visitor of / to the console', async () => {
      const res = await rt.http().get('/');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/console');
    });
  });

  describe('list cursors and limits', () => {
    it('refuses a data-source or row cursor that names no item of the list with 400 invalid_cursor', async () => {
      const a = (await api()('post', '/data-sources').expect(200)).body.dataSource.id as string;
      const b = (await api()('post', '/data-sources').expect(200)).body.dataSource.id as string;
      await api()('post', '/data-sources/row', { dataSourceId: a, dataSourceRows: [{ name: 'a.md', content: '# A' }] }).expect(200);
      const rowOfA = (await api()('post', '/data-sources/row/list', { dataSourceId: a }).expect(200)).body;
      const rowId = (rowOfA.dataSourceRows ?? rowOfA.rows)[0].id as string;

      for (const cursor of ['zzz', randomUUID(), rowId]) {
        const res = await api()('post', '/data-sources/list', { cursor });
        expect(res.status, cursor).toBe(400);
        expect(res.body.code).toBe('invalid_cursor');
      }
      for (const cursor of ['zzz', randomUUID(), rowId]) {
        const res = await api()('post', '/data-sources/row/list', { dataSourceId: b, cursor });
        expect(res.status, cursor).toBe(400);
        expect(res.body.code).toBe('invalid_cursor');
      }
      // A real cursor still pages.
      const next = await api()('post', '/data-sources/list', { cursor: a, limit: 1 });
      expect(next.status).toBe(200);
      expect(next.body.dataSources.map((d: { id: string }) => d.id)).toEqual([b]);
    });

    it('takes limit as a number or decimal digits only', async () => {
      for (const limit of ['0x10', '1e1', ' 16', '16.0', -1, 0, 101, 2.5]) {
        const res = await api()('post', '/data-sources/list', { limit });
        expect(res.status, String(limit)).toBe(400);
        expect(res.body.success).toBe(false);
      }
      const query = await adminApi(rt)('get', `/bots/${tenant.botId}/data-sources?limit=0x10`);
      expect(query.status).toBe(400);
      expect((await adminApi(rt)('get', `/bots/${tenant.botId}/data-sources?limit=16`)).status).toBe(200);
      expect((await api()('post', '/data-sources/list', { limit: '16' })).status).toBe(200);
    });
  });
});
