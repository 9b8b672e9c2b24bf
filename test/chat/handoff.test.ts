// Human handoff without a model: a clear request for a human escalates (event with userData and
// userEmail), the email is asked for and recorded, an agent claims, replies and releases through the
// admin API, and the bot stays silent while the conversation is claimed.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, useListeningApp } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { ConversationModel, type Conversation } from '../../src/chat/model.ts';
import { presentConversation } from '../../src/chat/presenters.ts';
import { EventModel, type EventType, type StoredEvent } from '../../src/events/model.ts';
import { asksForHuman, findEmail } from '../../src/chat/handoff.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';
import { loadRuleSet } from '../../src/gateway/rules/loader.ts';
import { planDelivery } from '../../src/gateway/rules/plan.ts';
import { chunkOrder, postMessage, readSse } from './support.ts';

const eventsOf = (conversationId: string, type: EventType) => EventModel.find({ conversationId, type }).lean<StoredEvent[]>();
const GRACE = { name: 'Grace', email: 'grace@example.com' };

describe('handoff intent without a model', () => {
  it('recognises clear requests for a human and nothing else', () => {
    for (const yes of ['I want to talk to a human', 'Can I speak with a real person?', 'connect me to an agent please', 'I need a human agent', 'human', 'Agent please!', 'transfer me to someone']) {
      expect(asksForHuman(yes), yes).toBe(true);
    }
    for (const no of ['What does the agent setting do?', 'Is this written by a human?', 'How do I add a person to my team?', 'talk is cheap', 'I want the agent role']) {
      expect(asksForHuman(no), no).toBe(false);
    }
  });

  it('reads a message of 300,000 blanks or letters in one pass, for the intent and for an email', () => {
    // Each took minutes when a pattern backtracked over the whole message from every position.
    const blanks = ' '.repeat(300_000);
    expect(asksForHuman(`human${blanks}x`)).toBe(false);
    expect(asksForHuman(`human please${blanks}!`)).toBe(true);
    expect(findEmail('a'.repeat(300_000))).toBeNull();
    expect(findEmail(`${'a'.repeat(300_000)} write to jo.doe@mail.example.com.`)).toBe('jo.doe@mail.example.com');
    expect(findEmail('reach me at ada+relay@example.co.uk or not at all')).toBe('ada+relay@example.co.uk');
  });
});

describe.each(['1.0', '2.0'] as const)('human handoff on %s', (version) => {
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let admin: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Support bot' });
    api = publicApi(rt, tenant, version);
    admin = adminApi(rt);
  });

  const roles = async (conversationId: string) =>
    ((await api('post', '/messages', { conversationId, limit: 100 })).body.messages as Array<{ role: string; message: string }>).map((m) => [m.role, m.message]);

  it('escalates with the saved email, once, and an agent claims, replies and releases', async () => {
    const start = await api('post', '/conversation', { userData: { name: 'Ada', email: 'ada@example.com' } });
    const conversationId = start.body.conversationId;
    const ask = await api('post', '/message', { conversationId, message: 'I want to talk to a human' });
    expect(ask.body.response).toMatch(/human agent.*ada@example\.com/);
    const [escalated] = await eventsOf(conversationId, 'conversation.escalated');
    expect(escalated?.payload).toEqual({
      event: 'conversation.escalated',
      timestamp: expect.any(String),
      conversation: { id: conversationId, botId: tenant.botId, botName: 'Support bot', channelType: 'api', state: 'Escalated', userData: { name: 'Ada', email: 'ada@example.com' } },
      userEmail: 'ada@example.com',
      reason: 'The user asked for a human agent',
    });
    await api('post', '/message', { conversationId, message: 'human please' }).expect(200);
    expect(await eventsOf(conversationId, 'conversation.escalated')).toHaveLength(1);

    const listed = await admin('get', `/bots/${tenant.botId}/conversations`);
    expect(listed.body.conversations).toEqual([expect.objectContaining({ id: conversationId, state: 'Escalated', userEmail: 'ada@example.com', agent: null })]);

    const claim = await admin('post', `/conversations/${conversationId}/claim`, { agent: GRACE });
    expect(claim.status).toBe(200);
    expect(claim.body.conversation).toMatchObject({ state: 'Active', agent: GRACE });
    const [claimed] = await eventsOf(conversationId, 'conversation.claimed');
    expect(claimed?.payload).toEqual({
      event: 'conversation.claimed',
      timestamp: expect.any(String),
      conversation: { id: conversationId, botId: tenant.botId, botName: 'Support bot', channelType: 'api', state: 'Active' },
      agent: GRACE,
    });
    expect((await admin('post', `/conversations/${conversationId}/claim`, { agent: { name: 'Other', email: 'o@example.com' } })).status).toBe(409);

    // While claimed the bot is silent: the user's message is saved and waits for the agent.
    const waiting = await api('post', '/message', { conversationId, message: 'are you there?' });
    expect(waiting.body).toEqual({ success: true, conversationId, response: '', sources: [], handledBy: 'agent' });
    const reply = await admin('post', `/conversations/${conversationId}/messages`, { message: 'Hi Ada, Grace here.' });
    expect(reply.status).toBe(201);
    expect(reply.body.message).toMatchObject({ role: 'agent', message: 'Hi Ada, Grace here.', agent: GRACE });

    const release = await admin('post', `/conversations/${conversationId}/release`);
    expect(release.body.conversation).toMatchObject({ state: 'Resolved' });
    const [released] = await eventsOf(conversationId, 'conversation.released');
    expect(released?.payload).toMatchObject({ event: 'conversation.released', conversation: { id: conversationId, state: 'Resolved' }, agent: GRACE });

    // After release the bot answers again.
    const after = await api('post', '/message', { conversationId, message: 'what is the return window?' });
    expect(after.body.response).toBe(NO_ANSWER);
    const history = await roles(conversationId);
    expect(history.map(([role]) => role)).toEqual(['assistant', 'user', 'tool', 'assistant', 'user', 'tool', 'assistant', 'user', 'agent', 'user', 'assistant']);
    expect(history[7]).toEqual(['user', 'are you there?']);
    expect(history[8]).toEqual(['agent', 'Hi Ada, Grace here.']);
  });

  it('asks for an email when none is known and records the one the user gives', async () => {
    const first = await api('post', '/message', { message: 'Can I speak to a person?' });
    const conversationId = first.body.conversationId;
    expect(first.body.response).toMatch(/What email address/);
    const [escalated] = await eventsOf(conversationId, 'conversation.escalated');
    expect(escalated?.payload).toMatchObject({ userEmail: null, conversation: { userData: {} } });
    const second = await api('post', '/message', { conversationId, message: 'sure, it is bo@example.org' });
    expect(second.body.response).toBe('Thank you. A human agent will contact you at bo@example.org.');
    const listed = await admin('get', `/bots/${tenant.botId}/conversations?state=Escalated&limit=100`);
    expect(listed.body.conversations.find((c: { id: string }) => c.id === conversationId)).toMatchObject({ userEmail: 'bo@example.org' });
  });

  it("carries the saved userData merged with the escalating request's, and the shipped rule mails those values", async () => {
    const start = await api('post', '/conversation', { userData: { id: 42, name: 'Ada Lovelace' } });
    const conversationId = start.body.conversationId;
    await api('post', '/message', { conversationId, message: 'I need a human, dee@example.org', userData: { tel: '+44 20 7946 0000' } }).expect(200);
    const [escalated] = await eventsOf(conversationId, 'conversation.escalated');
    expect(escalated?.payload.conversation).toMatchObject({ userData: { id: 42, name: 'Ada Lovelace', tel: '+44 20 7946 0000', email: 'dee@example.org' } });
    // The request's userData is for that reply only: the conversation keeps what /conversation saved.
    const listed = await admin('get', `/bots/${tenant.botId}/conversations?limit=100`);
    expect(listed.body.conversations.find((c: { id: string }) => c.id === conversationId).userData).toEqual({ id: 42, name: 'Ada Lovelace' });

    const [plan] = await planDelivery(loadRuleSet('rules'), {
      payload: escalated!.payload,
      headers: {},
      source: 'relay',
      event: 'conversation.escalated',
      test: false,
      signed: { event: true, test: true, deliveryId: true },
      deliveryId: 'd1',
      receivedAt: new Date().toISOString(),
      vars: {},
    });
    const text = String((plan?.actions[0] as { spec?: { text?: string } }).spec?.text);
    expect(text).toContain('Name: Ada Lovelace\n  Email: dee@example.org\n  Phone: +44 20 7946 0000\n  Id: 42');
    expect(text).toContain('Reason: The user asked for a human agent');
  });

  it('records an email given in the request that asks for a human', async () => {
    const res = await api('post', '/message', { message: 'connect me to an agent, cy@example.net' });
    const [escalated] = await eventsOf(res.body.conversationId, 'conversation.escalated');
    expect(escalated?.payload.userEmail).toBe('cy@example.net');
  });

  it('streams a claimed conversation as a turn with no text on 2.0', async () => {
    if (version !== '2.0') return;
    const start = await api('post', '/message', { message: 'human' });
    const conversationId = start.body.conversationId;
    await admin('post', `/conversations/${conversationId}/claim`, { agent: GRACE }).expect(200);
    const { chunks } = await readSse(await postMessage(app.baseUrl, tenant, '2.0', { conversationId, message: 'hello?', stream: true }));
    expect(chunkOrder(chunks)).toEqual(['start', 'data-conversation', 'start-step', 'finish-step', 'data-turn', 'finish']);
    expect(chunks.find((c) => c.type === 'data-turn')).toMatchObject({ data: { handledBy: 'agent', sources: [] } });
  });

  // The claim is one conditional update with nothing serialising it in the process; that the
  // database runs it atomically is test/db/lost-update.test.ts's (20 concurrent conditional updates).
  it('lets exactly one of several concurrent claims win, with one claimed event', async () => {
    const agents = Array.from({ length: 8 }, (_, i) => ({ name: `agent ${i}`, email: `agent${i}@example.com` }));
    for (let round = 0; round < 3; round++) {
      const start = await api('post', '/message', { message: 'human' });
      const conversationId = start.body.conversationId;
      const claims = await Promise.all(agents.map((agent) => admin('post', `/conversations/${conversationId}/claim`, { agent })));
      expect(claims.map((r) => r.status).sort()).toEqual([200, ...agents.slice(1).map(() => 409)]);
      expect(await eventsOf(conversationId, 'conversation.claimed')).toHaveLength(1);
    }
  });

  it('does not hand off when the bot has no handoff power-up', async () => {
    const other = await createTenant();
    await admin('patch', `/bots/${other.botId}`, { powerUps: [] }).expect(200);
    const res = await publicApi(rt, other, version)('post', '/message', { message: 'I want to talk to a human' });
    expect(res.body.response).toBe(NO_ANSWER);
    expect(await eventsOf(res.body.conversationId, 'conversation.escalated')).toHaveLength(0);
  });

  it('validates agent requests: 400 for bad ids and agents, 404 for unknown conversations, 409 out of order', async () => {
    const res = await api('post', '/message', { message: 'hello' });
    const conversationId = res.body.conversationId;
    expect((await admin('post', '/conversations/not-a-uuid/claim', { agent: GRACE })).status).toBe(400);
    expect((await admin('post', `/conversations/${conversationId}/claim`, { agent: { name: 'x' } })).status).toBe(400);
    expect((await admin('post', `/conversations/${conversationId}/claim`, { agent: { $ne: null } })).status).toBe(400);
    expect((await admin('post', '/conversations/00000000-0000-4000-8000-000000000000/release')).status).toBe(404);
    expect((await admin('get', '/bots/not-a-uuid/conversations')).status).toBe(400);
    expect((await admin('get', `/bots/${tenant.botId}/conversations?state=Nope`)).status).toBe(400);
    expect((await admin('post', `/conversations/${conversationId}/release`)).status).toBe(409);
    expect((await admin('post', `/conversations/${conversationId}/messages`, { message: 'too early' })).status).toBe(409);
    expect((await rt.http().get(`/api/admin/bots/${tenant.botId}/conversations`)).status).toBe(401);
  });

  it('shows an agent the public fields of a conversation, then its handoff state, in that order', async () => {
    const start = await api('post', '/conversation', { userData: { plan: 'pro' } });
    const conversationId = start.body.conversationId;
    const listed = await admin('get', `/bots/${tenant.botId}/conversations?state=Open&limit=100`);
    const shown = listed.body.conversations.find((c: { id: string }) => c.id === conversationId);
    const stored = (await ConversationModel.findById(conversationId).lean())!;
    expect(JSON.stringify(shown)).toBe(
      JSON.stringify({
        id: conversationId,
        createdAt: stored.createdAt.toISOString(),
        initialMessage: null,
        botId: tenant.botId,
        state: 'Open',
        userData: { plan: 'pro' },
        userEmail: null,
        agent: null,
      }),
    );
    // The agent's presenter writes the public fields out (no spread): it must keep every one of them, first.
    const publicKeys = Object.keys(presentConversation(stored as Conversation));
    expect(Object.keys(shown).slice(0, publicKeys.length)).toEqual(publicKeys);
  });

  it("answers an unknown bot's inbox with 404 bot_not_found, also when its cursor names nothing", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const query of ['state=Open', `state=Open&cursor=${unknown}`]) {
      const res = await admin('get', `/bots/${unknown}/conversations?${query}`);
      expect([res.status, res.body.code]).toEqual([404, 'bot_not_found']);
    }
    // The same cursor on a known bot's inbox is the page's own error.
    const res = await admin('get', `/bots/${tenant.botId}/conversations?state=Open&cursor=${unknown}`);
    expect([res.status, res.body.code]).toEqual([400, 'invalid_cursor']);
  });
});
