// The response deadline (REQUEST_TIMEOUT_MS): a request still waiting for its handlers answers 503
// `request_timeout`; a stream that has started is never cut; the abandoned handler's late outcome
// is logged and never reaches the client. The hang is real: a model that does not answer, since a
// whole chat reply waits on it with no timeout of its own (a hung driver operation cannot be made
// without racing driver internals, docs/FERRETDB.md).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useListeningApp, useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { startOpenAIStub, type OpenAIStub } from '../helpers/openaiStub.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { chunkOrder, postMessage, readSse, textOf } from '../chat/support.ts';

const TIMEOUT_MS = 2_000;
const env: Record<string, string> = { OPENAI_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-stub', REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) };
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
  env.OPENAI_BASE_URL = stub.url; // read by useTestRuntime's beforeAll, which runs after this one
});
afterAll(() => stub?.close());

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});
type LogLine = { msg: string; method?: string; path?: string; timeoutMs?: number; err?: { code?: string } };
const logged = (): LogLine[] => lines.map((l) => JSON.parse(l));
const timeouts = () => logged().filter((l) => l.err?.code === 'request_timeout');
const lateOutcomes = () => logged().filter((l) => / after its deadline$/.test(l.msg));

/** A model reply held until `release()`. */
function heldReply() {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  return { until, release };
}

describe('response deadline', () => {
  const rt = useTestRuntime({ env, worker: false, logger: createLogger('warn', sink) });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  const held: Array<() => void> = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeAll(async () => {
    tenant = await createTenant();
    process.on('unhandledRejection', onUnhandled);
  });
  // Let every abandoned handler finish while the database is still there.
  afterAll(async () => {
    for (const release of held) release();
    await waitFor(() => lateOutcomes().length >= timeouts().length);
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });

  /** A whole reply whose model never answers during the test: the deadline answers it. */
  async function timedOutMessage(message: string) {
    const model = heldReply();
    held.push(model.release);
    stub.enqueue({ text: 'too late', until: model.until });
    return publicApi(rt, tenant)('post', '/message', { message });
  }

  it('answers 503 request_timeout with Retry-After when the handler never finishes, and logs it without the key', async () => {
    const before = timeouts().length;
    const res = await timedOutMessage('is anyone there?');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ success: false, code: 'request_timeout', message: `The request did not finish within ${TIMEOUT_MS} ms; retry shortly` });
    const entry = timeouts().slice(before);
    expect(entry).toHaveLength(1);
    expect(entry[0]).toMatchObject({ method: 'POST', path: `/api/public/channels/${tenant.channelId}/2.0/message` });
    expect(lines.join('')).not.toContain(tenant.secretKey);
  });

  it.each(['2.0', '1.0'] as const)('does not cut a %s stream that outlasts the deadline', async (version) => {
    const model = heldReply();
    held.push(model.release);
    stub.enqueue({ text: ['First ', 'second ', 'third.'], until: model.until });
    const res = await postMessage(app.baseUrl, tenant, version, { message: `long ${version}`, stream: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let raw = '';
    while (!raw.includes('First')) raw += decoder.decode((await reader.read()).value, { stream: true });

    // A request sent after this stream started has met its deadline, so this stream's has passed too.
    const before = timeouts().length;
    expect((await timedOutMessage(`meanwhile ${version}`)).status).toBe(503);
    model.release();
    for (let part = await reader.read(); !part.done; part = await reader.read()) raw += decoder.decode(part.value, { stream: true });

    expect(timeouts().length).toBe(before + 1); // the later request only
    if (version === '2.0') {
      const { chunks } = await readSse(new Response(raw));
      expect(textOf(chunks)).toBe('First second third.');
      expect(chunkOrder(chunks).slice(-2)).toEqual(['data-turn', 'finish']);
      expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
    } else {
      const chunks = raw.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('First second third.');
      expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    }
  });

  it.each([
    ['answers', { text: 'late answer' }, 'request finished after its deadline'],
    ['fails', { status: 500 }, 'request failed after its deadline'],
  ] as const)('logs a handler that %s after its 503 and writes nothing more to the connection', async (outcomeName, reply, message) => {
    // A server of our own: the late outcome may take longer than Node's 5 s keep-alive default.
    const server = http.createServer({ keepAliveTimeout: 0 }, rt.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    try {
      const model = heldReply();
      held.push(model.release);
      stub.enqueue({ ...reply, until: model.until });
      const body = JSON.stringify({ message: `late ${outcomeName}` });
      socket.write(
        `POST /api/public/channels/${tenant.channelId}/2.0/message HTTP/1.1\r\nHost: relay.test\r\nContent-Type: application/json\r\n` +
          `X-API-Secret-Key: ${tenant.secretKey}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      const [timedOut] = await waitFor(() => responsesIn(received));
      expect(timedOut!.status).toBe(503);
      expect(JSON.parse(timedOut!.body)).toMatchObject({ success: false, code: 'request_timeout' });

      const late = lateOutcomes().length;
      model.release();
      await waitFor(() => lateOutcomes().length > late);
      const outcome = lateOutcomes().at(-1)!;
      expect(outcome).toMatchObject({ msg: message, method: 'POST', timeoutMs: TIMEOUT_MS });
      if ('status' in reply) expect(outcome.err?.code).toBe('upstream_error');
      else {
        // What the abandoned turn did stays done: the exchange is saved (docs/CHAT.md).
        const api = publicApi(rt, tenant);
        const conversations = (await api('post', '/conversations', { limit: 100 })).body.conversations as Array<{ id: string; initialMessage: string }>;
        const conversationId = conversations.find((c) => c.initialMessage === `late ${outcomeName}`)!.id;
        const messages = (await api('post', '/messages', { conversationId })).body.messages as Array<{ role: string; message: string }>;
        expect(messages.map((m) => [m.role, m.message])).toEqual([['user', `late ${outcomeName}`], ['assistant', 'late answer']]);
      }

      // The next response on the connection follows the 503 directly: nothing was written between.
      socket.write('GET /healthz HTTP/1.1\r\nHost: relay.test\r\n\r\n');
      const responses = await waitFor(() => (responsesIn(received)?.length === 2 ? responsesIn(received) : undefined));
      expect(responses!.map((r) => r.status)).toEqual([503, 200]);
      expect(JSON.parse(responses![1]!.body)).toEqual({ success: true, status: 'ok' });
      expect(unhandled).toEqual([]);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/**
 * Splits raw HTTP/1.1 bytes into whole responses (Content-Length bodies); undefined while one is
 * incomplete, and a throw if anything but a response starts where one should.
 */
function responsesIn(raw: string): Array<{ status: number; body: string }> | undefined {
  const out: Array<{ status: number; body: string }> = [];
  let rest = raw;
  while (rest) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = rest.slice(0, end);
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
    if (!status) throw new Error(`not a response: ${JSON.stringify(rest.slice(0, 80))}`);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isInteger(length)) throw new Error(`no content-length: ${head}`);
    if (rest.length < end + 4 + length) return undefined;
    out.push({ status: Number(status[1]), body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out.length ? out : undefined;
}
