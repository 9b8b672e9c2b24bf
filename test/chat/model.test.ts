// The model answerer end to end against a real OpenAI-compatible stub: prompt contents, history,
// tool calls (streamed and whole), token usage, model failures and client disconnects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor, useListeningApp } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { startOpenAIStub, type OpenAIStub } from '../helpers/openaiStub.ts';
import { EventModel } from '../../src/events/model.ts';
import { TeamModel } from '../../src/platform/model.ts';
import { chunkOrder, postMessage, readNdjson, readSse, textOf } from './support.ts';

const env: Record<string, string> = { OPENAI_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-stub' };
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
  env.OPENAI_BASE_URL = stub.url; // read by useTestRuntime's beforeAll, which runs after this one
});
afterAll(() => stub?.close());

const systemOf = (i: number) => stub.requests[i]!.messages.find((m) => m.role === 'system')?.content as string;

describe('chat with a model', () => {
  const rt = useTestRuntime({ env, worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
    await adminApi(rt)('patch', `/bots/${tenant.botId}`, { instructions: 'You are the Acme helper.' }).expect(200);
  });

  it('builds the system prompt from instructions, saved userData and extendContext, and sends earlier messages as history', async () => {
    const start = await api('post', '/conversation', { userData: { name: 'Ada', email: 'ada@example.com' }, message: 'never sent' });
    const conversationId = start.body.conversationId;
    stub.enqueue({ text: 'First answer.' });
    const first = await api('post', '/message', { conversationId, message: 'Question one', extendSystemMessage: 'Answer in French.', extendContext: { custom: { plan: 'gold' }, pageMeta: { url: 'https://acme.test/pricing', title: 'Pricing' } } });
    expect(first.body).toMatchObject({ success: true, conversationId, response: 'First answer.' });
    const i = stub.requests.length - 1;
    expect(stub.requests[i]!.model).toBe('stub-model');
    const system = systemOf(i);
    expect(system).toContain('You are the Acme helper.');
    expect(system).toContain('Answer in French.');
    expect(system).toContain('name: Ada');
    expect(system).toContain('plan: gold');
    expect(system).toContain('https://acme.test/pricing');
    expect(JSON.stringify(stub.requests[i]!.messages)).not.toContain('never sent');

    stub.enqueue({ text: 'Second answer.' });
    await api('post', '/message', { conversationId, message: 'Question two', extendSystemMessage: 'ignored', overrideSystemMessage: 'You are a pirate.' });
    const j = stub.requests.length - 1;
    expect(systemOf(j)).toContain('You are a pirate.');
    expect(systemOf(j)).not.toContain('Acme helper');
    expect(systemOf(j)).not.toContain('ignored');
    // extendContext was for the first request only.
    expect(systemOf(j)).not.toContain('plan: gold');
    expect(stub.requests[j]!.messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'assistant', content: 'Hello! How can I help you today?' },
      { role: 'user', content: 'Question one' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'Question two' },
    ]);
  });

  it("charges the model's reported usage to the team", async () => {
    const before = (await TeamModel.findOne({ id: tenant.teamId }).lean())!.usage!.chatTokens;
    stub.enqueue({ text: 'Counted.', usage: { prompt_tokens: 100, completion_tokens: 23 } });
    await api('post', '/message', { message: 'count me' }).expect(200);
    expect((await TeamModel.findOne({ id: tenant.teamId }).lean())!.usage!.chatTokens).toBe(before + 123);
  });

  it('streams the model reply as SDK chunks on 2.0 and NDJSON on 1.0', async () => {
    stub.enqueue({ text: ['Hel', 'lo ', 'there'] });
    const sse = await readSse(await postMessage(app.baseUrl, tenant, '2.0', { message: 'hi', stream: true }));
    expect(chunkOrder(sse.chunks)).toEqual(['start', 'data-conversation', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'data-turn', 'finish']);
    expect(textOf(sse.chunks)).toBe('Hello there');
    expect(sse.chunks.filter((c) => c.type === 'text-delta')).toHaveLength(3);
    stub.enqueue({ text: ['Bon', 'jour'] });
    const lines = await readNdjson(await postMessage(app.baseUrl, tenant, '1.0', { message: 'hi', stream: true }));
    expect(lines.map((l) => l.choices[0].delta.content ?? '').join('')).toBe('Bonjour');
    expect(lines[0]!.model).toBe('stub-model');
  });

  it('runs the handoff tool from a streamed tool call and streams the follow-up text', async () => {
    stub.enqueue({ toolCall: { name: 'human_handoff', arguments: { reason: 'wants a person', email: 'bo@example.com' } } }, { text: 'An agent is on the way.' });
    const res = await postMessage(app.baseUrl, tenant, '2.0', { message: 'get me someone real', stream: true });
    const conversationId = res.headers.get('x-conversation-id')!;
    const { chunks } = await readSse(res);
    const order = chunkOrder(chunks);
    expect(order.slice(0, 3)).toEqual(['start', 'data-conversation', 'start-step']);
    expect(order.indexOf('tool-input-start')).toBeLessThan(order.indexOf('tool-input-delta'));
    expect(order.indexOf('tool-input-delta')).toBeLessThan(order.indexOf('tool-input-available'));
    expect(order.indexOf('tool-input-available')).toBeLessThan(order.indexOf('tool-output-available'));
    expect(order.indexOf('tool-output-available')).toBeLessThan(order.indexOf('text-start'));
    expect(order.slice(-3)).toEqual(['finish-step', 'data-turn', 'finish']);
    const input = chunks.find((c) => c.type === 'tool-input-available') as { toolName: string; input: unknown };
    expect(input).toMatchObject({ toolName: 'human_handoff', input: { reason: 'wants a person', email: 'bo@example.com' } });
    expect(textOf(chunks)).toBe('An agent is on the way.');
    // The tool was offered to the model, and its result went back in the second request.
    expect(stub.requests.at(-2)!.tools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'human_handoff' }) })]);
    expect(JSON.stringify(stub.requests.at(-1)!.messages)).toContain('human agent');
    const event = await EventModel.findOne({ type: 'conversation.escalated', conversationId }).lean();
    expect(event?.payload).toMatchObject({ conversation: { state: 'Escalated' }, userEmail: 'bo@example.com' });
    const roles = (await api('post', '/messages', { conversationId })).body.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['user', 'tool', 'assistant']);
  });

  it('runs the handoff tool from a whole (non-streamed) tool call', async () => {
    stub.enqueue({ toolCall: { name: 'human_handoff', arguments: {} } }, { text: 'Someone will join shortly.' });
    const res = await api('post', '/message', { message: 'operator', userData: { email: 'cy@example.com' } }).expect(200);
    expect(res.body.response).toBe('Someone will join shortly.');
    expect(stub.requests.at(-2)!.stream).toBeFalsy();
    const event = await EventModel.findOne({ type: 'conversation.escalated', conversationId: res.body.conversationId }).lean();
    expect(event?.payload).toMatchObject({ userEmail: 'cy@example.com' });
  });

  it('reports a failing model as error and data-error chunks with no finish', async () => {
    stub.enqueue({ status: 500, errorMessage: 'model exploded' });
    const res = await postMessage(app.baseUrl, tenant, '2.0', { message: 'hi', stream: true });
    expect(res.status).toBe(200);
    const { chunks, raw } = await readSse(res);
    expect(chunkOrder(chunks)).toEqual(['start', 'data-conversation', 'start-step', 'error', 'data-error']);
    expect(chunks.find((c) => c.type === 'error')).toMatchObject({ errorText: expect.stringContaining('model exploded') });
    expect(chunks.find((c) => c.type === 'data-error')).toEqual({
      type: 'data-error',
      data: { provider: 'openai-compatible', model: 'stub-model', statusCode: 500, statusMessage: 'model exploded' },
    });
    expect(raw).not.toContain('"finish"');
    // The user's message is kept; no reply is saved.
    const listed = await api('post', '/messages', { conversationId: res.headers.get('x-conversation-id') });
    expect(listed.body.messages.map((m: { role: string; message: string }) => [m.role, m.message])).toEqual([['user', 'hi']]);
  });

  it('answers a failing model with 502 on a whole reply and a final error line on 1.0', async () => {
    stub.enqueue({ status: 503, errorMessage: 'overloaded' });
    const res = await api('post', '/message', { message: 'hi' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'upstream_error', provider: 'openai-compatible', model: 'stub-model', statusCode: 503, statusMessage: 'overloaded' });
    stub.enqueue({ status: 500 });
    const lines = await readNdjson(await postMessage(app.baseUrl, tenant, '1.0', { message: 'hi', stream: true }));
    expect(lines.at(-1)).toMatchObject({ choices: [{ finish_reason: 'error' }], error: { statusCode: 500 } });
  });

  it.each(['2.0', '1.0'] as const)('stops generation when a %s client disconnects and saves what was produced', async (version) => {
    stub.enqueue({ text: ['Partial ', 'answer'], hang: true });
    const hangUps = stub.hangUps;
    const abort = new AbortController();
    const res = await postMessage(app.baseUrl, tenant, version, { message: `slow ${version}`, stream: true }, abort.signal);
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('answer')) seen += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    // The model request was cancelled: the stub saw its client go away.
    await waitFor(() => stub.hangUps > hangUps);
    const conversations = (await api('post', '/conversations', { limit: 100 })).body.conversations as Array<{ id: string; initialMessage: string }>;
    const conversationId = conversations.find((c) => c.initialMessage === `slow ${version}`)!.id;
    const saved = await waitFor(async () => {
      const messages = (await api('post', '/messages', { conversationId })).body.messages as Array<{ role: string; message: string }>;
      return messages.find((m) => m.role === 'assistant');
    });
    expect(saved.message).toBe('Partial answer');
  });
});
