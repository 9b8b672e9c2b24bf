// `relay conversations …` as a process: an agent lists escalated conversations, claims one,
// replies, reads the thread and releases it, against the same database as the API.
import { beforeAll, describe, expect, it } from 'vitest';
import { relayCli, useListeningApp, useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { EventModel } from '../../src/events/model.ts';
import { trusted } from '../../src/db/connection.ts';

// Several CLI processes a test: a bound for a machine under heavy load (one call can take 10 s there), not a speed check.
describe('relay conversations CLI', { timeout: 240_000 }, () => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let conversationId: string;
  const relay = relayCli(rt, useListeningApp(rt));
  beforeAll(async () => {
    tenant = await createTenant();
    const res = await publicApi(rt, tenant)('post', '/message', { message: 'I want to talk to a human', userData: { email: 'ada@example.com' } });
    conversationId = res.body.conversationId;
  });

  it('lists, claims, replies to and releases an escalated conversation', async () => {
    const listed = JSON.parse((await relay('conversations', 'list', '--bot', tenant.botId)).stdout);
    expect(listed.conversations).toEqual([expect.objectContaining({ id: conversationId, state: 'Escalated', userEmail: 'ada@example.com' })]);
    const claimed = JSON.parse((await relay('conversations', 'claim', conversationId, '--name', 'Grace', '--email', 'grace@example.com')).stdout);
    expect(claimed).toMatchObject({ state: 'Active', agent: { name: 'Grace', email: 'grace@example.com' } });
    const reply = JSON.parse((await relay('conversations', 'reply', conversationId, '--message', 'Hello from Grace')).stdout);
    expect(reply).toMatchObject({ role: 'agent', message: 'Hello from Grace' });
    const thread = JSON.parse((await relay('conversations', 'messages', conversationId)).stdout);
    expect(thread.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'tool', 'assistant', 'agent']);
    const released = JSON.parse((await relay('conversations', 'release', conversationId)).stdout);
    expect(released.state).toBe('Resolved');
    expect(await EventModel.countDocuments({ conversationId, type: trusted({ $in: ['conversation.claimed', 'conversation.released'] }) })).toBe(2);
  });

  it('exits non-zero naming the error for a bad id and for releasing twice', async () => {
    await expect(relay('conversations', 'claim', 'nope', '--name', 'G', '--email', 'g@example.com')).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/validation_failed/) });
    await expect(relay('conversations', 'release', conversationId)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/conflict/) });
  });
});
