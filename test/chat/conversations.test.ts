// The chat endpoints on both versions: start, message, list conversations and messages, tenancy,
// validation, and the conversation.started event. No model is configured (grounded answerer).
import mongoose from 'mongoose';
import type { CommandStartedEvent } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { EventModel } from '../../src/events/model.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';

const VERSIONS = ['1.0', '2.0'] as const;

describe.each(VERSIONS)('chat API on %s', (version) => {
  const rt = useTestRuntime({ worker: false, monitorCommands: true });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant, version);
  });

  it('starts a conversation with the welcome message and saves userData, not the message, for the bot', async () => {
    const res = await api('post', '/conversation', { userData: { id: 7, name: 'Ada', email: 'ada@example.com' }, message: 'Hi from the widget' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, conversationId: expect.any(String), response: 'Hello! How can I help you today?' });
    const event = await EventModel.findOne({ type: 'conversation.started', conversationId: res.body.conversationId }).lean();
    expect(event?.payload).toEqual({
      event: 'conversation.started',
      timestamp: expect.any(String),
      conversation: {
        id: res.body.conversationId,
        botId: tenant.botId,
        botName: 'Test bot',
        channelType: 'api',
        initialMessage: 'Hi from the widget',
        createdAt: expect.any(String),
        userData: { id: 7, name: 'Ada', email: 'ada@example.com' },
      },
    });
    // The initial message is not sent to the bot: the only message is the welcome.
    const messages = await api('post', '/messages', { conversationId: res.body.conversationId });
    expect(messages.body.messages.map((m: { role: string; message: string }) => [m.role, m.message])).toEqual([['assistant', 'Hello! How can I help you today?']]);
  });

  it('starts a conversation without a body', async () => {
    const res = await api('post', '/conversation');
    expect(res.status).toBe(200);
    const event = await EventModel.findOne({ conversationId: res.body.conversationId }).lean();
    expect(event?.payload.conversation).not.toHaveProperty('initialMessage');
  });

  it('creates a conversation implicitly on /message and emits started with the message and the unsaved userData', async () => {
    const res = await api('post', '/message', { message: 'What is your refund policy?', userData: { name: 'Bo', tel: '+100' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, conversationId: expect.any(String), response: NO_ANSWER });
    const event = await EventModel.findOne({ type: 'conversation.started', conversationId: res.body.conversationId }).lean();
    expect(event?.payload.conversation).toMatchObject({ initialMessage: 'What is your refund policy?', userData: { name: 'Bo', tel: '+100' } });
    // Not saved: a later escalation would carry the saved (empty) userData.
    const { ConversationModel } = await import('../../src/chat/model.ts');
    expect((await ConversationModel.findOne({ id: res.body.conversationId }).lean())?.userData).toEqual({});
  });

  it('continues a conversation and lists its messages oldest first with paging', async () => {
    const first = await api('post', '/message', { message: 'one' });
    const id = first.body.conversationId;
    const second = await api('post', '/message', { message: 'two', conversationId: id });
    expect(second.body.conversationId).toBe(id);
    const page1 = await api('post', '/messages', { conversationId: id, limit: 3 });
    expect(page1.status).toBe(200);
    expect(page1.body.messages.map((m: { role: string; message: string }) => [m.role, m.message])).toEqual([
      ['user', 'one'],
      ['assistant', NO_ANSWER],
      ['user', 'two'],
    ]);
    expect(page1.body.messages[0]).toEqual({ id: expect.any(String), message: 'one', role: 'user', createdAt: expect.any(String) });
    expect(page1.body.pagination).toEqual({ total: 4, last: page1.body.messages[2].id });
    const page2 = await api('post', '/messages', { conversationId: id, limit: 3, cursor: page1.body.pagination.last });
    expect(page2.body.messages.map((m: { message: string }) => m.message)).toEqual([NO_ANSWER]);
    const page3 = await api('post', '/messages', { conversationId: id, limit: 3, cursor: page2.body.pagination.last });
    expect(page3.body).toEqual({ success: true, messages: [], pagination: { total: 4, last: null } });
  });

  it('lists only this bot’s conversations, oldest first', async () => {
    const own = await createTenant();
    const ownApi = publicApi(rt, own, version);
    const a = await ownApi('post', '/conversation', { message: 'first' });
    const b = await ownApi('post', '/message', { message: 'second' });
    await api('post', '/conversation');
    const res = await ownApi('post', '/conversations', { limit: 10 });
    expect(res.body).toEqual({
      success: true,
      conversations: [
        { id: a.body.conversationId, createdAt: expect.any(String), initialMessage: 'first' },
        { id: b.body.conversationId, createdAt: expect.any(String), initialMessage: 'second' },
      ],
      pagination: { total: 2, last: b.body.conversationId },
    });
  });

  it('pages by cursor in one read of the conversations (no lookup of the cursor apart), and refuses a cursor not in the list', async () => {
    const own = await createTenant();
    const ownApi = publicApi(rt, own, version);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ownApi('post', '/conversation')).body.conversationId);
    const first = await ownApi('post', '/conversations', { limit: 1 });
    expect(first.body.pagination).toEqual({ total: 3, last: ids[0] });
    const sent: string[] = [];
    const record = (e: CommandStartedEvent) => {
      if (e.command[e.commandName] === 'conversations') sent.push(e.commandName);
    };
    const client = mongoose.connection.getClient();
    client.on('commandStarted', record);
    const next = await ownApi('post', '/conversations', { limit: 1, cursor: first.body.pagination.last });
    client.off('commandStarted', record);
    expect(next.body.conversations.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
    expect(next.body.pagination).toEqual({ total: 3, last: ids[1] });
    // The page and its total (the `count` command): the cursor's own conversation comes back as the page's first item.
    expect(sent.sort()).toEqual(['count', 'find']);
    const last = await ownApi('post', '/conversations', { limit: 5, cursor: ids[2] });
    expect(last.body).toMatchObject({ conversations: [], pagination: { total: 3, last: null } });
    const theirs = (await api('post', '/conversation')).body.conversationId as string;
    for (const cursor of [theirs, '00000000-0000-4000-8000-000000000000']) {
      const res = await ownApi('post', '/conversations', { cursor });
      expect(res.status, cursor).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_cursor' });
    }
  });

  it('pages in id order whatever the order of writing, with the limit and the cursor applied by the read', async () => {
    const own = await createTenant();
    const ownApi = publicApi(rt, own, version);
    const { ConversationModel } = await import('../../src/chat/model.ts');
    const id = (n: number) => `0190a000-0000-7000-8000-00000000000${n}`;
    // Written 3, 1, 2: the page is in id order, not the table's, and holds the limit only.
    for (const n of [3, 1, 2]) {
      await ConversationModel.create({ _id: id(n), id: id(n), botId: own.botId, teamId: own.teamId, channelId: own.channelId, createdAt: new Date(Date.UTC(2026, 0, n)) });
    }
    const first = await ownApi('post', '/conversations', { limit: 2 });
    expect(first.body).toEqual({
      success: true,
      conversations: [
        { id: id(1), createdAt: '2026-01-01T00:00:00.000Z', initialMessage: null },
        { id: id(2), createdAt: '2026-01-02T00:00:00.000Z', initialMessage: null },
      ],
      pagination: { total: 3, last: id(2) },
    });
    const next = await ownApi('post', '/conversations', { limit: 2, cursor: id(2) });
    expect(next.body).toEqual({ success: true, conversations: [{ id: id(3), createdAt: '2026-01-03T00:00:00.000Z', initialMessage: null }], pagination: { total: 3, last: id(3) } });
  });

  it("gives 404 for a missing conversation and for another bot's, on /message and /messages", async () => {
    const other = await createTenant();
    const theirs = await publicApi(rt, other, version)('post', '/conversation');
    for (const conversationId of [theirs.body.conversationId, '00000000-0000-4000-8000-000000000000']) {
      const list = await api('post', '/messages', { conversationId });
      expect(list.status).toBe(404);
      expect(list.body).toMatchObject({ success: false, code: 'conversation_not_found' });
      // The transcript is read beside the conversation: a cursor it lacks is still answered as a missing conversation.
      const paged = await api('post', '/messages', { conversationId, cursor: '00000000-0000-4000-8000-000000000000' });
      expect(paged.status).toBe(404);
      expect(paged.body).toMatchObject({ success: false, code: 'conversation_not_found' });
      const send = await api('post', '/message', { message: 'hi', conversationId });
      expect(send.status).toBe(404);
    }
  });

  it('rejects missing and mistyped fields and operator objects with 400', async () => {
    const cases: unknown[] = [
      {},
      { message: '' },
      { message: 42 },
      { message: { $ne: null } },
      { message: 'x', conversationId: { $ne: null } },
      { message: 'x', conversationId: 'not-a-uuid' },
      { message: 'x', stream: 'yes' },
      { message: 'x', extendSystemMessage: 5 },
      { message: 'x', extendContext: 'text' },
      { message: 'x', extendContext: { custom: { nested: { a: 1 } } } },
      { message: 'x', extendContext: { custom: { list: [1, 2] } } },
      { message: 'x', extendContext: { pageMeta: { title: 'no url' } } },
      { message: 'x', extendContext: { pageMeta: { url: { $gt: '' } } } },
      { message: 'x', userData: { id: { $ne: null } } },
      { message: 'x', userData: { $where: 'sleep(1000)' } },
      { message: 'x', userData: 'ada' },
    ];
    for (const body of cases) {
      const res = await api('post', '/message', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    for (const body of [{ conversationId: { $ne: null } }, {}, { conversationId: 'x' }, { conversationId: '00000000-0000-4000-8000-000000000000', limit: 0 }]) {
      const res = await api('post', '/messages', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api('post', '/conversation', { userData: { email: ['a'] } })).status).toBe(400);
    expect((await api('post', '/conversation', { message: { $gt: '' } })).status).toBe(400);
    expect((await api('post', '/conversations', { limit: 101 })).status).toBe(400);
    expect((await api('post', '/conversations', { cursor: { $gt: '' } })).status).toBe(400);
  });

  it('accepts a well-formed extendContext, extendSystemMessage and overrideSystemMessage', async () => {
    const res = await api('post', '/message', {
      message: 'hello',
      extendSystemMessage: 'Be brief.',
      overrideSystemMessage: 'You are a pirate.',
      extendContext: { custom: { plan: 'gold', seats: 3, trial: false }, pageMeta: { url: 'https://example.com/pricing', 'og:title': 'Pricing' }, markdown: '# Note' },
    });
    expect(res.status).toBe(200);
  });
});
