// SSRF through outgoing webhooks (issue 7): with OUTBOUND_ALLOW_PRIVATE=false a test send to any
// loopback, private, link-local, CGNAT, ULA or NAT64 target is refused as a blocked address and
// a live loopback listener is never contacted; saving such a literal host is refused up front.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { WebhookModel } from '../../src/webhooks/model.ts';
import { checkTargetUrl } from '../../src/webhooks/service.ts';
import { startSink, type Sink } from '../outbound/sinks.ts';

const PRIVATE_HOSTS = [
  '127.0.0.1', '127.1', '2130706433', '0x7f.1', '0.0.0.0', 'localhost', '[::1]', '[::ffff:127.0.0.1]',
  '10.0.0.1', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '[fd00::1]', '[fe80::1]', '[64:ff9b::7f00:1]',
];

describe('webhook targets with OUTBOUND_ALLOW_PRIVATE=false', () => {
  const rt = useTestRuntime({ env: { OUTBOUND_ALLOW_PRIVATE: 'false' }, worker: false });
  const admin = (method: 'get' | 'post' | 'patch', path: string, body?: unknown) => adminApi(rt)(method, path, body);
  let tenant: Tenant;
  let sink: Sink;
  let hookPath: string;
  let hookId: string;

  beforeAll(async () => {
    tenant = await createTenant();
    // If any loopback form slipped through, it would land here: every URL below uses this port.
    sink = await startSink((_req, res) => res.end('reached'));
    const created = await admin('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: 'https://hooks.example.com/in' }).expect(201);
    hookId = created.body.webhook.id;
    hookPath = `/bots/${tenant.botId}/webhooks/${hookId}`;
  });
  afterAll(async () => {
    await sink?.close();
  });

  it.each(PRIVATE_HOSTS)('refuses a test send to %s as a blocked address and contacts nothing', async (host) => {
    // A hook saved while private targets were allowed (or before this check existed) is written
    // directly: the save-time check is advisory, the send-time guard is the one under test.
    for (const scheme of ['http', 'https']) {
      const url = `${scheme}://${host}:${sink.port}/hook`;
      await WebhookModel.updateOne({ _id: hookId }, { $set: { url } });
      const before = sink.connections;
      const res = await admin('post', `${hookPath}/test`).expect(200);
      expect(res.body.test, url).toMatchObject({ status: null, error: { code: 'blocked_address' } });
      expect(res.body.test.request.url).toBe(url);
      expect(sink.connections, url).toBe(before);
    }
    expect(sink.received).toEqual([]);
  });

  it.each(PRIVATE_HOSTS)('refuses to save a webhook whose literal host is %s', async (host) => {
    const url = `https://${host}:${sink.port}/hook`;
    const created = await admin('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url });
    expect(created.status, url).toBe(400);
    expect(created.body).toMatchObject({ success: false, code: 'validation_failed' });
    expect(created.body.message).toMatch(/not public|loopback/);
    const updated = await admin('patch', hookPath, { url });
    expect(updated.status, url).toBe(400);
  });

  it('still saves a public host with a templated path, leaving names to the send-time check', async () => {
    for (const url of ['https://hooks.example.com/in', 'https://8.8.8.8/in', 'https://hooks.example.com/{{conversation.botName}}/in']) {
      await admin('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url }).expect(201);
    }
  });

  it('admits private literal hosts at save time once OUTBOUND_ALLOW_PRIVATE is on', () => {
    for (const host of PRIVATE_HOSTS) expect(() => checkTargetUrl(`http://${host}:8080/hook`, true)).not.toThrow();
    expect(() => checkTargetUrl('https://10.0.0.1/hook', false)).toThrow(/not public/);
  });
});
