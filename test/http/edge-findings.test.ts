// Issue 35's edge findings, each through the public surface: /docs framed (D1), any method starting
// a sync (H1), error-level log lines anyone can cause (L1), `constructor.prototype` bodies (P1/G2),
// a media type in capitals refused by the gateway, and a trickled request held for 300 s.
import net from 'node:net';
import { Writable } from 'node:stream';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { useListeningApp, useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { startOpenAIStub, type OpenAIStub } from '../helpers/openaiStub.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { SYNC_JOB } from '../../src/datasources/sync.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { postMessage } from '../chat/support.ts';
import { createDataSource } from '../datasources/support.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { hmacHeader } from '../gateway/support/signing.ts';

const SECRET = 'edge-findings-secret-0123';
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] } } });
const env: Record<string, string> = { ...files.env, OPENAI_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-stub' };
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
  env.OPENAI_BASE_URL = stub.url;
});
afterAll(() => stub?.close());

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const ERROR_LEVEL = 50;

describe('the edge, probed', () => {
  const rt = useTestRuntime({ env, logger: createLogger('debug', sink), ...modulesWithGateway() });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'enterprise' });
  });

  it('D1: serves /docs and its files with the console security headers: CSP with frame-ancestors, X-Frame-Options, nosniff', async () => {
    for (const path of ['/docs', '/docs/init.js', '/docs/swagger-ui.css', '/console']) {
      const res = await rt.http().get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-security-policy'], path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['content-security-policy'], path).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
    expect((await rt.http().get('/docs')).headers['content-security-policy']).toBe((await rt.http().get('/console')).headers['content-security-policy']);
  });

  it('H1: the sync-trigger hook starts a sync on the documented methods only; HEAD, OPTIONS, TRACE and PROPFIND start nothing', async () => {
    const api = publicApi(rt, tenant);
    const admin = adminApi(rt);
    const dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'a', content: 'Alpha' }] }).expect(200);
    const created = await admin('post', `/bots/${tenant.botId}/data-sources/${dataSourceId}/sync-hooks`).expect(201);
    await admin('put', `/bots/${tenant.botId}/sync-hooks/${created.body.hook.id}/enabled`, { enabled: true }).expect(200);
    const path = new URL(created.body.url).pathname;
    const syncJobs = async () => (await rt.runtime.ctx.jobs.queryJobs({ name: SYNC_JOB, data: { dataSourceId } })).jobs.length;

    for (const method of ['head', 'trace', 'propfind'] as const) {
      const res = await (rt.http() as unknown as Record<string, (p: string) => Promise<{ status: number; body: unknown; headers: Record<string, string> }>>)[method](path);
      expect([405, 501], method).toContain(res.status);
      if (res.status === 405) expect(res.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
      if (method !== 'head') expect(res.body).toMatchObject({ success: false, code: res.status === 405 ? 'method_not_allowed' : 'not_implemented' });
    }
    const head = await rt.http().head(path);
    expect(head.status).toBe(405);
    const options = await rt.http().options(path);
    expect(options.status).not.toBe(500);
    expect(options.body).not.toMatchObject({ success: true });
    expect(await syncJobs()).toBe(0);
    expect((await api('get', `/data-sources?dataSourceId=${dataSourceId}`).expect(200)).body.dataSource.state).not.toBe('syncing');

    expect((await rt.http().get(path)).body).toEqual({ success: true });
    expect(await syncJobs()).toBe(1);
  });

  it('L1: an unknown method and a dropped chat stream log at info or below, without a stack', async () => {
    const from = lines.length;
    for (const method of ['trace', 'propfind'] as const) {
      const res = await (rt.http() as unknown as Record<string, (p: string) => Promise<{ status: number }>>)[method]('/api/admin/teams');
      expect(res.status).toBe(501);
    }
    // Clients hanging up on both stream formats, before and after the response has started.
    for (const version of ['2.0', '1.0'] as const) {
      for (const when of ['at once', 'after the headers']) {
        stub.enqueue({ text: ['Partial ', 'answer'] });
        const abort = new AbortController();
        const sent = postMessage(app.baseUrl, tenant, version, { message: `drop ${version} ${when}`, stream: true }, abort.signal);
        if (when === 'at once') abort.abort();
        await sent.catch(() => undefined);
        abort.abort();
      }
    }
    // One of them is seen mid-turn and logged (as a failure, before this was fixed).
    await waitFor(() => lines.slice(from).some((l) => typeof l.msg === 'string' && l.msg.startsWith('chat stream')));
    const ours = lines.slice(from);
    expect(ours.filter((l) => (l.level as number) >= ERROR_LEVEL)).toEqual([]);
    expect(ours.filter((l) => l.err !== undefined || JSON.stringify(l).includes('    at '))).toEqual([]);
    expect(ours.filter((l) => l.code === 'not_implemented')).toHaveLength(2);
  });

  it('P1/G2: refuses __proto__ and constructor.prototype at any depth with 400, in the public API and the gateway', async () => {
    const api = publicApi(rt, tenant);
    const bodies = [
      '{"message":"x","__proto__":{"polluted":true}}',
      '{"message":"x","constructor":{"prototype":{"polluted":true}}}',
      '{"message":"x","userData":{"a":[{"constructor":{"prototype":{"polluted":true}}}]}}',
      '{"message":"x","userData":{"deep":{"__proto__":{"polluted":true}}}}',
    ];
    for (const body of bodies) {
      const res = await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/message`).set('X-API-Secret-Key', tenant.secretKey).set('Content-Type', 'application/json').send(body);
      expect([res.status, res.body.code], body).toEqual([400, 'invalid_json']);
      const gateway = await rt.http().post('/gateway/relay').set('Content-Type', 'application/json').set('X-Service-Signature', hmacHeader(body, SECRET)).send(body);
      expect([gateway.status, gateway.body.code], body).toEqual([400, 'invalid_json']);
    }
    // A key merely named constructor (a form field, say) is data, not a prototype path.
    const fine = '{"event":"x.y","constructor":{"name":"ok"},"prototype":1}';
    const accepted = await rt.http().post('/gateway/relay').set('Content-Type', 'application/json').set('X-Service-Signature', hmacHeader(fine, SECRET)).send(fine);
    expect(accepted.status).toBe(202);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    void api;
  });

  it('the gateway takes application/JSON and a charset parameter in any case; other types stay 415', async () => {
    for (const type of ['application/JSON', 'Application/Json; Charset=UTF-8', 'application/json; charset=utf-8']) {
      const body = JSON.stringify({ event: 'x.y', n: type });
      const res = await rt.http().post('/gateway/relay').set('Content-Type', type).set('X-Service-Signature', hmacHeader(body, SECRET)).send(body);
      expect([type, res.status]).toEqual([type, 202]);
    }
    const body = JSON.stringify({ event: 'x.y', n: 'text' });
    const refused = await rt.http().post('/gateway/relay').set('Content-Type', 'text/plain').set('X-Service-Signature', hmacHeader(body, SECRET)).send(body);
    expect([refused.status, refused.body.code]).toEqual([415, 'unsupported_media_type']);
  });
});

describe('the HTTP server', () => {
  it('answers 408 and closes a request whose body trickles past HTTP_RECEIVE_TIMEOUT_MS', async () => {
    const server = createHttpServer((req, res) => req.resume().on('end', () => res.end('ok')), { HTTP_HEADERS_TIMEOUT_MS: 300, HTTP_RECEIVE_TIMEOUT_MS: 600 });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d));
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
    // One byte every 50 ms would take 80 minutes; the server must not wait for it.
    const trickle = setInterval(() => socket.writable && socket.write('a'), 50);
    await closed;
    clearInterval(trickle);
    server.close();
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
