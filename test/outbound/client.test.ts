// The guarded outbound client against real local sinks: statuses, redirects, timeouts, caps.
import { getEventListeners } from 'node:events';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../src/outbound/client.ts';
import { decodeCapped } from '../../src/outbound/responseBody.ts';
import { signBody } from '../../src/security/signature.ts';
import { startSink, streamBytes, type Sink } from './sinks.ts';
import { lookupAnswering } from './lookups.ts';

const LIMIT = 4096;
const client = createOutboundClient({ allowPrivate: true, timeoutMs: 2000, responseLimitBytes: LIMIT });
const sinks: Sink[] = [];
async function sink(handler: Parameters<typeof startSink>[0]): Promise<Sink> {
  const s = await startSink(handler);
  sinks.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(sinks.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await client.close();
});

describe('outbound client responses', () => {
  it('returns ok with status, headers and body for a 2xx answer', async () => {
    const s = await sink((_req, res) => {
      res.setHeader('x-sink', 'yes');
      res.writeHead(201).end('created');
    });
    const res = await client.send({ method: 'POST', url: `${s.url}/hook?x=1`, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res).toMatchObject({ ok: true, status: 201, body: 'created', bodyTruncated: false, error: null });
    expect(res.headers['x-sink']).toBe('yes');
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(s.received).toHaveLength(1);
    expect(s.received[0]).toMatchObject({ method: 'POST', url: '/hook?x=1' });
    expect(s.received[0].body.toString()).toBe('{"a":1}');
  });

  it('delivers the exact body bytes, so a signature made before sending verifies at the sink', async () => {
    const s = await sink((_req, res) => res.end('ok'));
    const body = Buffer.from(JSON.stringify({ text: 'zoë "quoted"\nline', n: 1.5e-7 }));
    await client.send({ method: 'POST', url: s.url, headers: { 'x-service-signature': signBody(body, 'k') }, body });
    expect(s.received[0].body.equals(body)).toBe(true);
    expect(signBody(s.received[0].body, 'k')).toBe(s.received[0].headers['x-service-signature']);
  });

  it('sends every allowed method', async () => {
    const s = await sink((_req, res) => res.end());
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect((await client.send({ method, url: s.url })).ok).toBe(true);
    }
    expect(s.received.map((r) => r.method)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('asks for identity encoding and drops framing headers the caller tries to set', async () => {
    const s = await sink((_req, res) => res.end());
    await client.send({
      method: 'POST',
      url: s.url,
      headers: { 'Accept-Encoding': 'gzip', 'Content-Length': '999', Host: 'evil.example', 'X-Custom': 'kept' },
      body: 'abc',
    });
    const h = s.received[0].headers;
    expect(h['accept-encoding']).toBe('identity');
    expect(h['content-length']).toBe('3');
    expect(h.host).toBe(`127.0.0.1:${s.port}`);
    expect(h['x-custom']).toBe('kept');
  });

  it('turns credentials in the URL into a Basic authorization header', async () => {
    const s = await sink((_req, res) => res.end());
    await client.send({ method: 'GET', url: `http://us%40er:p%3Ass@127.0.0.1:${s.port}/` });
    expect(s.received[0].headers.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
  });

  it('records a 500 as a failure with its status and body', async () => {
    const s = await sink((_req, res) => res.writeHead(500).end('boom'));
    const res = await client.send({ method: 'POST', url: s.url, body: 'x' });
    expect(res).toMatchObject({ ok: false, status: 500, body: 'boom', error: { code: 'http_status' } });
  });

  it('records a 404 as a failure', async () => {
    const s = await sink((_req, res) => res.writeHead(404).end());
    expect(await client.send({ method: 'GET', url: s.url })).toMatchObject({ ok: false, status: 404, error: { code: 'http_status' } });
  });

  it.each([301, 302, 303, 307, 308])('records a %i as a redirect failure and never contacts the target', async (code) => {
    const target = await sink((_req, res) => res.end('should not be reached'));
    const s = await sink((_req, res) => res.writeHead(code, { location: `${target.url}/next` }).end());
    const res = await client.send({ method: 'POST', url: s.url, body: 'x' });
    expect(res).toMatchObject({ ok: false, status: code, error: { code: 'redirect' } });
    expect(res.error?.message).toContain(`${target.url}/next`);
    expect(target.connections).toBe(0);
  });

  it('reports a refused connection as a network error with no status', async () => {
    const s = await sink((_req, res) => res.end());
    const url = s.url;
    await s.close();
    sinks.splice(sinks.indexOf(s), 1);
    expect(await client.send({ method: 'GET', url })).toMatchObject({ ok: false, status: null, error: { code: 'network' } });
  });

  it.each([
    ['not a URL', 'not a url'],
    ['a relative path', '/hooks/1'],
    ['a file URL', 'file:///etc/passwd'],
    ['an ftp URL', 'ftp://example.com/x'],
    ['a javascript URL', 'javascript:alert(1)'],
    ['a data URL', 'data:text/plain,hi'],
  ])('refuses %s with invalid_url', async (_name, url) => {
    expect(await client.send({ method: 'GET', url })).toMatchObject({ ok: false, status: null, error: { code: 'invalid_url' } });
  });

  it('refuses a header value with CR/LF as a network error and sends nothing', async () => {
    const s = await sink((_req, res) => res.end());
    const res = await client.send({ method: 'POST', url: s.url, headers: { 'x-a': 'v\r\nx-injected: 1' } });
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'network' } });
    expect(s.received).toHaveLength(0);
  });

  it('reports an empty DNS answer as a network error', async () => {
    const empty = createOutboundClient({ allowPrivate: false, timeoutMs: 2000, responseLimitBytes: LIMIT, lookup: lookupAnswering([[]]) });
    const res = await empty.send({ method: 'GET', url: 'http://nowhere.example.com/' });
    await empty.close();
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'network' } });
    expect(res.error?.message).toContain('ENOTFOUND');
  });

  it('uses the injected lookup to resolve the host it dials', async () => {
    const s = await sink((_req, res) => res.end('via lookup'));
    const viaLookup = createOutboundClient({ allowPrivate: true, timeoutMs: 2000, responseLimitBytes: LIMIT, lookup: lookupAnswering([['127.0.0.1']]) });
    const res = await viaLookup.send({ method: 'GET', url: `http://sink.test:${s.port}/` });
    await viaLookup.close();
    expect(res).toMatchObject({ ok: true, body: 'via lookup' });
    expect(s.received[0].headers.host).toBe(`sink.test:${s.port}`);
  });
});

describe('outbound client time bounds', () => {
  const quick = createOutboundClient({ allowPrivate: true, timeoutMs: 300, responseLimitBytes: LIMIT });
  afterAll(() => quick.close());

  it('fails with timeout when the sink never answers', async () => {
    const s = await sink(() => {});
    const res = await quick.send({ method: 'POST', url: s.url, body: 'x' });
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'timeout' } });
    expect(s.received).toHaveLength(1);
  });

  it('cuts a trickling body at the total timeout and keeps what arrived', async () => {
    const s = await sink((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      const tick = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(tick));
    });
    const res = await quick.send({ method: 'GET', url: s.url });
    expect(res).toMatchObject({ ok: false, status: 200, error: { code: 'timeout' } });
    expect(res.body.startsWith('first;')).toBe(true);
  });

  it('lets a per-call timeout override the client default', async () => {
    const s = await sink(() => {});
    const res = await client.send({ method: 'GET', url: s.url }, { timeoutMs: 150 });
    expect(res.error?.code).toBe('timeout');
  });

  it('fails with timeout while DNS never answers, without waiting for the connect timeout', { timeout: 3000 }, async () => {
    // The client's own default (and so undici's connect timeout) is 5 s; the per-call 200 ms must win.
    const stuck = createOutboundClient({ allowPrivate: false, timeoutMs: 5000, responseLimitBytes: LIMIT, lookup: () => {} });
    const res = await stuck.send({ method: 'GET', url: 'http://stuck.example.com/' }, { timeoutMs: 200 });
    void stuck.close();
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'timeout' } });
  });

  it('returns at once when the caller signal is already aborted', async () => {
    const s = await sink((_req, res) => res.end());
    const res = await client.send({ method: 'GET', url: s.url }, { signal: AbortSignal.abort() });
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'network', message: 'aborted by caller' } });
  });

  it('leaves no listener behind on a long-lived caller signal shared by many sends', async () => {
    const s = await sink((_req, res) => res.end());
    const shutdown = new AbortController();
    for (let i = 0; i < 20; i++) await client.send({ method: 'GET', url: s.url }, { signal: shutdown.signal });
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  it('stops when the caller aborts and does not call it a timeout', async () => {
    const s = await sink(() => {});
    const controller = new AbortController();
    const pending = client.send({ method: 'GET', url: s.url }, { signal: controller.signal });
    // Abort only once the request reached the sink, so the abort hits a live request.
    while (s.received.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'network', message: 'aborted by caller' } });
  });
});

describe('outbound client response caps', () => {
  it('stores only the first bytes of a 50 MB body and stops reading it', async () => {
    const progress: { sent: number; done?: Promise<void> } = { sent: 0 };
    const total = 50 * 1024 * 1024;
    const s = await sink((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      streamBytes(res, total, Buffer.alloc(64 * 1024, 'a'), progress);
    });
    const res = await client.send({ method: 'GET', url: s.url });
    expect(res).toMatchObject({ ok: true, status: 200, bodyTruncated: true });
    expect(Buffer.byteLength(res.body)).toBe(LIMIT);
    expect(res.body).toBe('a'.repeat(LIMIT));
    // The sink could only push what socket buffers absorbed before we hung up.
    await progress.done;
    expect(progress.sent).toBeLessThan(total / 5);
  });

  it('stores a gzip bomb as raw capped bytes without inflating it', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const s = await sink((req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json', 'x-asked': String(req.headers['accept-encoding']) });
      res.end(bomb);
    });
    const res = await client.send({ method: 'GET', url: s.url });
    expect(res.headers['x-asked']).toBe('identity');
    expect(res.bodyTruncated).toBe(true);
    expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(LIMIT);
    // The raw gzip bytes (magic 0x1f 0x8b), not inflated zeros.
    expect(res.body.charCodeAt(0)).toBe(0x1f);
    expect(res.body).toBe(decodeCapped(bomb.subarray(0, LIMIT), LIMIT));
  });

  it('keeps a body of exactly the limit whole and not truncated', async () => {
    const s = await sink((_req, res) => res.end('b'.repeat(LIMIT)));
    const res = await client.send({ method: 'GET', url: s.url });
    expect(res).toMatchObject({ ok: true, bodyTruncated: false });
    expect(res.body).toHaveLength(LIMIT);
  });

  it('never splits a multi-byte character at the cap', async () => {
    const s = await sink((_req, res) => res.end('€'.repeat(LIMIT)));
    const res = await client.send({ method: 'GET', url: s.url });
    expect(res.bodyTruncated).toBe(true);
    expect(res.body).toBe('€'.repeat(Math.floor(LIMIT / 3)));
  });

  it('stores an empty body when the limit is zero', async () => {
    const zero = createOutboundClient({ allowPrivate: true, timeoutMs: 2000, responseLimitBytes: 0 });
    const s = await sink((_req, res) => res.end('something'));
    const res = await zero.send({ method: 'GET', url: s.url });
    await zero.close();
    expect(res).toMatchObject({ ok: true, body: '', bodyTruncated: true });
  });
});
