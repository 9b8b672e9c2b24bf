// The client's non-streamed chat calls against the real app on both versions: start, send, and the
// conversations and messages lists with their iterators. No model: the grounded answerer replies.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, useListeningApp } from '../helpers/harness.ts';
import { createTenant, type Tenant } from '../helpers/factories.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';
import type { RelayClient } from '../../src/client/index.ts';
import { clientFor, failure, type SentRequest } from './support.ts';

const WELCOME = 'Hello! How can I help you today?';

describe.each(['1.0', '2.0'] as const)('chat through the client on %s', (version) => {
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let client: RelayClient;
  let sent: SentRequest[];
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
    ({ client, sent } = clientFor(app.baseUrl, tenant, version));
  });

  it('starts a conversation with the welcome message and lists it with its initial message', async () => {
    const started = await client.chat.startConversation({ userData: { id: 7, name: 'Ada' }, message: 'Hi from the widget' });
    expect(started).toEqual({ conversationId: expect.any(String), response: WELCOME });
    const { items } = await client.chat.listConversations({ limit: 100 });
    expect(items.find((c) => c.id === started.conversationId)).toEqual({ id: started.conversationId, createdAt: expect.any(String), initialMessage: 'Hi from the widget' });
  });

  it('sends a message into an existing conversation and reads the history back in order', async () => {
    const { conversationId } = await client.chat.startConversation();
    const reply = await client.chat.sendMessage({ message: 'Where is the manual?', conversationId });
    expect(reply).toEqual({ conversationId, response: NO_ANSWER, sources: [] });
    expect(sent.at(-1)!.body).toEqual({ message: 'Where is the manual?', conversationId, stream: false });
    const page = await client.chat.listMessages(conversationId);
    expect(page.items.map((m) => [m.role, m.message])).toEqual([
      ['assistant', WELCOME],
      ['user', 'Where is the manual?'],
      ['assistant', NO_ANSWER],
    ]);
    expect(page.pagination).toEqual({ total: 3, last: page.items[2]!.id });
  });

  it('creates a conversation when a message names none', async () => {
    const reply = await client.chat.sendMessage({ message: 'Hello?' });
    expect(reply.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.chat.listMessages(reply.conversationId)).items.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('iterates every message of a conversation in pages with the last id as cursor', async () => {
    const { conversationId } = await client.chat.startConversation();
    for (const n of [1, 2]) await client.chat.sendMessage({ message: `question ${n}`, conversationId });
    sent.length = 0;
    const messages = [];
    for await (const m of client.chat.iterateMessages(conversationId, { pageSize: 2 })) messages.push(m);
    expect(messages.map((m) => m.message)).toEqual([WELCOME, 'question 1', NO_ANSWER, 'question 2', NO_ANSWER]);
    expect(sent.map((r) => r.body)).toEqual([
      { conversationId, limit: 2 },
      { conversationId, limit: 2, cursor: messages[1]!.id },
      { conversationId, limit: 2, cursor: messages[3]!.id },
    ]);
  });

  it('iterates every conversation of the bot oldest first', async () => {
    for (let i = 0; i < 4; i++) await client.chat.startConversation();
    const total = (await client.chat.listConversations()).pagination.total;
    const ids = [];
    for await (const c of client.chat.iterateConversations({ pageSize: 3 })) ids.push(c.id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(ids.slice(0, 3)).toEqual((await client.chat.listConversations({ limit: 3 })).items.map((c) => c.id));
  });

  it('refuses the messages of another bot’s conversation with a typed 404', async () => {
    const other = clientFor(app.baseUrl, await createTenant(), version).client;
    const { conversationId } = await other.chat.startConversation();
    expect(await failure(client.chat.listMessages(conversationId))).toMatchObject({ status: 404, code: 'conversation_not_found' });
  });
});
