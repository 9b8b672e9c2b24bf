// Issue 6 "Verification": our own API is the sender. Its outgoing webhooks, configured through the
// admin API, reach the gateway intake over a real socket; the gateway is configured the way an
// operator would (GATEWAY_CONFIG with the hook secrets and the channel id/key, then a reload) and
// runs the shipped rules: an escalation ends as mail on a real SMTP server, and a sync failure ends
// as a new sync started through our public API.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor, useListeningApp } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { RowContentModel } from '../../src/datasources/model.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { startSmtpServer } from './support/servers.ts';

const SUPPORT_EMAIL = 'escalations@example.net';
const USER = { id: 'u-1815', name: 'Ada Lovelace', email: 'ada@example.org', tel: '+44 20 7946 0000' };

// The gateway starts with no sources: until the operator adds one, every intake is 404.
const files = gatewayFiles({ sources: {} });
// The shipped example rules, unchanged.
const env: Record<string, string> = { ...files.env, RULES_DIR: 'rules', MAIL_FROM: 'Relay <relay@test.local>' };

interface Hook {
  id: string;
  secret: string;
}

interface GatewayAction {
  type: string;
  status: string;
  attempts: number;
  error: string | null;
  result: Record<string, unknown> | null;
}
interface GatewayDelivery {
  id: string;
  deliveryId: string;
  event: string;
  test: boolean;
  processedAt: string | null;
  rules: Array<{ rule: string; result: string; actions: GatewayAction[] }>;
}

describe('our API as the sender of the gateway', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    env.SMTP_URL = smtp.url; // read when the runtime starts, in the next beforeAll
  });
  afterAll(() => smtp?.close());
  const rt = useTestRuntime({ env, ...modulesWithGateway() });
  const app = useListeningApp(rt);

  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let escalationHook: Hook;
  let failureHook: Hook;

  async function createHook(type: string): Promise<Hook> {
    const res = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type, url: `${app.baseUrl}/gateway/relay` });
    expect(res.status).toBe(201);
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true }).expect(200);
    return { id: res.body.webhook.id, secret: res.body.secret };
  }

  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Help bot' });
    api = publicApi(rt, tenant);
    escalationHook = await createHook('conversation.escalated');
    failureHook = await createHook('sync.failure');

    // What the operator knows: the two hooks' secrets, the channel id and its key (kept in a
    // secret file), the service's address, and where escalations go.
    const keyFile = path.join(files.root, 'channel-key');
    writeFileSync(keyFile, `${tenant.secretKey}\n`);
    const config = {
      sources: {
        relay: {
          secrets: [escalationHook.secret, failureHook.secret],
          api: { baseUrl: app.baseUrl, channelId: tenant.channelId, secretKey: `file:${keyFile}` },
          resync: { maxAttemptsPerHour: 3 },
        },
      },
      vars: { supportEmail: SUPPORT_EMAIL },
    };
    writeFileSync(files.configFile, JSON.stringify(config, null, 2));
    const reload = await adminApi(rt)('post', '/gateway/reload');
    expect(reload.status).toBe(200);
    expect(reload.body.sources).toEqual(['relay']);
    expect(reload.body.errors).toEqual([]);
  });

  const gatewayDeliveries = async (event: string): Promise<GatewayDelivery[]> =>
    (await adminApi(rt)('get', `/gateway/deliveries?source=relay&event=${event}&limit=100`).expect(200)).body.deliveries;
  const finished = (d: GatewayDelivery) =>
    d.processedAt !== null && d.rules.length > 0 && d.rules.every((r) => r.actions.every((a) => a.status === 'succeeded' || a.status === 'failed'));
  const webhookDeliveries = async (hook: Hook) =>
    (await adminApi(rt)('get', `/bots/${tenant.botId}/webhooks/${hook.id}/deliveries?limit=100`).expect(200)).body.deliveries as Array<{
      id: string;
      event: string;
      status: string;
      attempts: Array<{ httpStatus: number | null }>;
    }>;
  const dataSource = async (id: string) => (await api('get', `/data-sources?dataSourceId=${id}`).expect(200)).body.dataSource as { state: string; lastSync: string | null };

  it('mails the support address with the user data and email when a user of our API asks for a human', async () => {
    const start = await api('post', '/conversation', { userData: USER }).expect(200);
    const conversationId: string = start.body.conversationId;
    const ask = await api('post', '/message', { conversationId, message: 'I want to talk to a human' }).expect(200);
    expect(ask.body.response).toMatch(/human agent/);

    // Our webhook delivered it, signed, and the gateway accepted it first time.
    const [sent] = await waitFor(async () => {
      const list = await webhookDeliveries(escalationHook);
      return list.length === 1 && list[0]!.status === 'delivered' && list;
    });
    expect(sent!.event).toBe('conversation.escalated');
    expect(sent!.attempts.map((a) => a.httpStatus)).toEqual([202]);

    const [received] = await waitFor(async () => {
      const list = await gatewayDeliveries('conversation.escalated');
      return list.length === 1 && finished(list[0]!) && list;
    });
    expect(received).toMatchObject({ deliveryId: sent!.id, event: 'conversation.escalated', test: false });
    expect(received!.rules).toEqual([expect.objectContaining({ rule: 'email-support-on-escalation', result: 'matched' })]);
    expect(received!.rules[0]!.actions).toEqual([expect.objectContaining({ type: 'email', status: 'succeeded', attempts: 1 })]);

    const mail = await waitFor(() => smtp.mails.length === 1 && smtp.mails[0]);
    expect(mail.to).toEqual([SUPPORT_EMAIL]);
    expect(mail.from).toBe('relay@test.local');
    const raw = mail.raw.replace(/\r\n /g, ' '); // long headers are folded by the mailer
    expect(raw).toMatch(new RegExp(`^Subject: Escalation: Help bot conversation ${conversationId}`, 'm'));
    expect(raw).toMatch(/^Reply-To: ada@example\.org/m);
    expect(raw).toContain(`Conversation: ${conversationId}`);
    expect(raw).toContain(`Name: ${USER.name}`);
    expect(raw).toContain(`Email: ${USER.email}`);
    expect(raw).toContain(`Phone: ${USER.tel}`);
    expect(raw).toContain(`Id: ${USER.id}`);
    expect(raw).toContain(`Delivery ${sent!.id} from relay.`);
  });

  it('starts a new sync through our public API when a data source of our API fails to sync', async () => {
    const id: string = (await api('post', '/data-sources').expect(200)).body.dataSource.id;
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'faq', content: '# FAQ\n\nReturns within 30 days.' }] }).expect(200);
    const [row] = (await api('post', '/data-sources/row/list', { dataSourceId: id }).expect(200)).body.dataSourceRows as Array<{ id: string }>;
    // A row whose stored content cannot be unpacked fails the sync (as in test/datasources/sync.test.ts).
    const good = await RowContentModel.findById(row!.id).lean();
    await RowContentModel.updateOne({ _id: row!.id }, { $set: { data: Buffer.from('not deflate data') } });

    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
    await waitFor(async () => (await dataSource(id)).state === 'sync_error');
    expect((await dataSource(id)).lastSync).toBeNull();
    // The cause is repaired; from here only a new sync can take the data source out of sync_error,
    // and nothing in our API starts one (no syncInterval). Should the gateway's first re-sync read
    // the row before this repair, it fails again and the next sync.failure re-syncs again (cap 3).
    await RowContentModel.updateOne({ _id: row!.id }, { $set: { data: good!.data } });

    const synced = await waitFor(async () => {
      const ds = await dataSource(id);
      return ds.state === 'synced' && ds;
    }, 20_000);
    expect(synced.lastSync).not.toBeNull();

    // The chain that did it: our sync.failure webhook, accepted by the gateway, whose resync rule
    // started the sync through the public API.
    const sent = await webhookDeliveries(failureHook);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.every((d) => d.event === 'sync.failure' && d.status === 'delivered' && d.attempts.at(-1)?.httpStatus === 202)).toBe(true);
    const received = await waitFor(async () => {
      const list = await gatewayDeliveries('sync.failure');
      return list.length === sent.length && list.every(finished) && list;
    });
    expect(received.map((d) => d.deliveryId).sort()).toEqual(sent.map((d) => d.id).sort());
    const resyncs = received.flatMap((d) => d.rules.filter((r) => r.rule === 'resync-on-sync-failure').flatMap((r) => r.actions.filter((a) => a.type === 'resync')));
    expect(resyncs).toHaveLength(received.length);
    expect(resyncs.every((a) => a.status === 'succeeded')).toBe(true);
    expect(resyncs.flatMap((a) => a.result!.started as string[])).toContain(id);
  });
});
