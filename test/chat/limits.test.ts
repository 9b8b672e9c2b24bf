// Chat limits (spec "Limits", "Errors" Chat): maximum message length and team chat tokens give 429
// with a stable code; replies are charged to the team's chat tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { TeamModel } from '../../src/platform/model.ts';
import { ConversationModel } from '../../src/chat/model.ts';
import { NO_ANSWER } from '../../src/chat/answerers/grounded.ts';
import { countTokens } from '../../src/chat/tokens.ts';
import { registry } from '../../src/observability/metrics.ts';

const chatTokensOf = async (teamId: string) => (await TeamModel.findOne({ id: teamId }).lean())!.usage!.chatTokens;

describe.each(['1.0', '2.0'] as const)('chat limits on %s', (version) => {
  const rt = useTestRuntime({ worker: false, env: { PLAN_LIMITS_JSON: JSON.stringify({ pro: { maxMessageLength: 12 } }) } });
  let admin: ReturnType<typeof adminApi>;
  beforeAll(() => {
    admin = adminApi(rt);
  });

  it("refuses a message over the plan's maximum length with 429 message_too_long, counting characters not bytes", async () => {
    const tenant = await createTenant({ plan: 'pro' });
    const api = publicApi(rt, tenant, version);
    expect((await api('post', '/message', { message: '🙂'.repeat(12) })).status).toBe(200);
    const res = await api('post', '/message', { message: 'x'.repeat(13) });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 'message_too_long', maxMessageLength: 12 });
  });

  it("uses the bot's own maximum length over the plan's", async () => {
    const tenant = await createTenant({ plan: 'pro' });
    await admin('patch', `/bots/${tenant.botId}`, { maxMessageLength: 20 }).expect(200);
    const api = publicApi(rt, tenant, version);
    expect((await api('post', '/message', { message: 'x'.repeat(20) })).status).toBe(200);
    expect((await api('post', '/message', { message: 'x'.repeat(21) })).body.code).toBe('message_too_long');
  });

  it('creates nothing when a /message is refused', async () => {
    const tenant = await createTenant({ plan: 'pro' });
    await publicApi(rt, tenant, version)('post', '/message', { message: 'x'.repeat(50) }).expect(429);
    expect(await ConversationModel.countDocuments({ botId: tenant.botId })).toBe(0);
  });

  it('charges each grounded reply to the team and counts it in the tokens metric', async () => {
    const tenant = await createTenant();
    const metricBefore = (await registry.getSingleMetric('relay_tokens_used_total')!.get()).values.find((v) => v.labels.kind === 'chat')?.value ?? 0;
    await publicApi(rt, tenant, version)('post', '/message', { message: 'How do I reset my password?' }).expect(200);
    const expected = countTokens('How do I reset my password?', NO_ANSWER);
    expect(await chatTokensOf(tenant.teamId)).toBe(expected);
    const metricAfter = (await registry.getSingleMetric('relay_tokens_used_total')!.get()).values.find((v) => v.labels.kind === 'chat')!.value;
    expect(metricAfter - metricBefore).toBe(expected);
  });

  it('counts concurrent replies without losing any', async () => {
    const tenant = await createTenant();
    const api = publicApi(rt, tenant, version);
    await Promise.all(Array.from({ length: 6 }, () => api('post', '/message', { message: 'same question' }).expect(200)));
    expect(await chatTokensOf(tenant.teamId)).toBe(6 * countTokens('same question', NO_ANSWER));
  });

  it('refuses /message and /conversation with 429 token_limit_reached once the team is out of chat tokens', async () => {
    const tenant: Tenant = await createTenant();
    const api = publicApi(rt, tenant, version);
    await admin('put', `/teams/${tenant.teamId}/plan`, { plan: 'standard', limits: { chatTokens: 1 } }).expect(200);
    await api('post', '/message', { message: 'uses the last token' }).expect(200);
    const message = await api('post', '/message', { message: 'one more' });
    expect(message.status).toBe(429);
    expect(message.body).toMatchObject({ success: false, code: 'token_limit_reached' });
    const start = await api('post', '/conversation', {});
    expect(start.status).toBe(429);
    expect(start.body).toMatchObject({ success: false, code: 'token_limit_reached', statusMessage: 'Token limit reached' });
    // The listing endpoints still work.
    expect((await api('post', '/conversations', {})).status).toBe(200);
  });
});
