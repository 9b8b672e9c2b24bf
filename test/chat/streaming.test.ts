// Streaming without a model: 2.0 SSE read with the ai SDK's own parser, 1.0 NDJSON, and limits
// answered as normal non-streamed 429s.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, useListeningApp } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';
import { chunkOrder, postMessage, readNdjson, readSse, textOf } from './support.ts';

describe('2.0 streaming (no model)', () => {
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('streams start, data-conversation, text, data-turn, finish and [DONE] with x-conversation-id', async () => {
    const res = await postMessage(app.baseUrl, tenant, '2.0', { message: 'Where is the manual?', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const conversationId = res.headers.get('x-conversation-id');
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const { raw, chunks, message } = await readSse(res);
    // Frames: `data: <json>` separated by a blank line, ending with [DONE].
    expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
    for (const frame of raw.trimEnd().split('\n\n')) expect(frame).toMatch(/^data: /);
    expect(chunkOrder(chunks)).toEqual(['start', 'data-conversation', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'data-turn', 'finish']);
    const start = chunks[0] as { messageId: string };
    expect(chunks[1]).toEqual({ type: 'data-conversation', data: { conversationId } });
    expect(textOf(chunks)).toBe(NO_ANSWER);
    const turn = chunks.find((c) => c.type === 'data-turn') as { data: { rowIds: string[]; lastRowId: string; sources: unknown[] } };
    expect(turn.data.sources).toEqual([]);
    expect(turn.data.rowIds).toHaveLength(2);
    expect(turn.data.lastRowId).toBe(start.messageId);
    // The SDK's reader assembles the same message.
    expect(message?.id).toBe(start.messageId);
    expect(message?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('')).toBe(NO_ANSWER);
    // data-turn came after the messages were saved: they are listed under the ids it gave.
    const listed = await publicApi(rt, tenant)('post', '/messages', { conversationId });
    expect(listed.body.messages.map((m: { id: string }) => m.id)).toEqual(turn.data.rowIds);
    expect(listed.body.messages[1]).toMatchObject({ role: 'assistant', message: NO_ANSWER });
  });

  it('streams power-up activity as tool chunks and saves a tool message', async () => {
    const res = await postMessage(app.baseUrl, tenant, '2.0', { message: 'Can I speak to a human?', stream: true, userData: { email: 'ada@example.com' } });
    const { chunks, message } = await readSse(res);
    expect(chunkOrder(chunks)).toEqual([
      'start',
      'data-conversation',
      'start-step',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'data-turn',
      'finish',
    ]);
    const output = chunks.find((c) => c.type === 'tool-output-available') as { output: { message: string; display: object } };
    expect(output.output.message).toMatch(/human agent/);
    expect(output.output.display).toMatchObject({ state: 'Escalated', userEmail: 'ada@example.com' });
    expect(message?.parts.some((p) => p.type === 'tool-human_handoff')).toBe(true);
    const turn = chunks.find((c) => c.type === 'data-turn') as { data: { rowIds: string[] } };
    const listed = await publicApi(rt, tenant)('post', '/messages', { conversationId: res.headers.get('x-conversation-id') });
    expect(listed.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'tool', 'assistant']);
    expect(listed.body.messages.map((m: { id: string }) => m.id)).toEqual(turn.data.rowIds);
  });

  it('records a streamed request in the HTTP metrics under its route with status 200', async () => {
    const { registry } = await import('../../src/observability/metrics.ts');
    const count = async () =>
      (await registry.getSingleMetric('relay_http_requests_total')!.get()).values.find(
        (v) => v.labels.route === '/api/public/channels/:channelId/:version/message' && v.labels.status === '200',
      )?.value ?? 0;
    const before = await count();
    await readSse(await postMessage(app.baseUrl, tenant, '2.0', { message: 'metrics', stream: true }));
    expect(await count()).toBe(before + 1);
  });

  it('answers a streamed request over the message length with the normal 429', async () => {
    await adminApi(rt)('patch', `/bots/${tenant.botId}`, { maxMessageLength: 5 }).expect(200);
    try {
      const res = await postMessage(app.baseUrl, tenant, '2.0', { message: 'much too long', stream: true });
      expect(res.status).toBe(429);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ success: false, code: 'message_too_long' });
    } finally {
      await adminApi(rt)('patch', `/bots/${tenant.botId}`, { maxMessageLength: null }).expect(200);
    }
  });

  it('gives 404 before streaming for another bot’s conversation', async () => {
    const other = await createTenant();
    const theirs = await publicApi(rt, other)('post', '/conversation');
    const res = await postMessage(app.baseUrl, tenant, '2.0', { message: 'hi', stream: true, conversationId: theirs.body.conversationId });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: 'conversation_not_found' });
  });
});

describe('1.0 streaming (no model)', () => {
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('streams chat.completion.chunk lines whose contents concatenate to the reply, with no conversation id', async () => {
    const res = await postMessage(app.baseUrl, tenant, '1.0', { message: 'Where is the manual?', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('x-conversation-id')).toBeNull();
    const lines = await readNdjson(res);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line).toMatchObject({ id: expect.stringMatching(/^chatcmpl-/), object: 'chat.completion.chunk', created: expect.any(Number), model: 'grounded' });
      expect(line.choices).toHaveLength(1);
      expect(line.choices[0].index).toBe(0);
      expect(JSON.stringify(line)).not.toMatch(/conversation/i);
    }
    expect(lines[0]!.choices[0].delta.role).toBe('assistant');
    expect(lines.map((l) => l.choices[0].delta.content ?? '').join('')).toBe(NO_ANSWER);
    expect(lines.slice(0, -1).every((l) => l.choices[0].finish_reason === null)).toBe(true);
    expect(lines[lines.length - 1]!.choices[0].finish_reason).toBe('stop');
  });

  it('answers a streamed request over the token limit with the normal 429', async () => {
    await adminApi(rt)('put', `/teams/${tenant.teamId}/plan`, { plan: 'standard', limits: { chatTokens: 0 } }).expect(200);
    const res = await postMessage(app.baseUrl, tenant, '1.0', { message: 'hi', stream: true });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ success: false, code: 'token_limit_reached' });
  });
});
