// De-duplication: 50 concurrent copies of one delivery give one stored delivery, one rule run and
// one email on a real SMTP server; later copies are answered 2xx as duplicates.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { startSmtpServer } from './support/servers.ts';
import { hmacHeader, postDelivery } from './support/signing.ts';

const SECRET = 'dedupe-secret-0123456789';
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] } } });
// The shipped example rules, unchanged: the escalation rule mails support@example.com.
const env: Record<string, string> = { ...files.env, RULES_DIR: 'rules', MAIL_FROM: 'Relay <relay@test.local>' };

describe('gateway de-duplication', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    env.SMTP_URL = smtp.url; // read when the runtime starts, in the next beforeAll
  });
  afterAll(() => smtp?.close());
  const rt = useTestRuntime({ env, ...modulesWithGateway() });

  it('stores one delivery and sends one email for 50 concurrent copies', async () => {
    const raw = readFileSync('test/fixtures/gateway/conversation.escalated.json');
    const payload = JSON.parse(raw.toString('utf8'));
    const headers = { 'X-Service-Signature': hmacHeader(raw, SECRET), 'X-Service-Delivery-Id': payload.deliveryId, 'X-Service-Event': 'conversation.escalated' };

    const responses = await Promise.all(Array.from({ length: 50 }, () => postDelivery(rt, 'relay', raw, headers)));
    expect(responses.every((r) => r.status === 200 || r.status === 202)).toBe(true);
    expect(responses.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(responses.filter((r) => r.body.duplicate === true)).toHaveLength(49);

    const list = await adminApi(rt)('get', '/gateway/deliveries?limit=100');
    expect(list.body.pagination.total).toBe(1);
    const id = list.body.deliveries[0].id;
    const delivery = await waitFor(async () => {
      const d = (await adminApi(rt)('get', `/gateway/deliveries/${id}`)).body.delivery;
      return d.rules[0]?.actions[0]?.status === 'succeeded' && d;
    });
    expect(delivery.rules).toHaveLength(1);
    expect(delivery.rules[0]).toMatchObject({ rule: 'email-support-on-escalation', result: 'matched' });
    expect(delivery.rules[0].actions[0].attempts).toBe(1);

    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(['support@example.com']);
    expect(mail.from).toBe('relay@test.local');
    // Long headers are folded onto a second line by the mailer.
    expect(mail.raw.replace(/\r\n /g, ' ')).toMatch(/^Subject: Escalation: Help bot conversation 0b7e2f8a-6c1d-4e3f-9a2b-5c4d3e2f1a0b/m);
    expect(mail.raw).toMatch(/^Reply-To: ada@example\.org/m);
    expect(mail.raw).toContain('Name: Ada Lovelace');
    expect(mail.raw).toContain('Phone: +44 20 7946 0000');

    // A copy arriving after processing is still a duplicate and sends nothing.
    const late = await postDelivery(rt, 'relay', raw, headers);
    expect(late.body).toMatchObject({ success: true, duplicate: true });
    const after = (await adminApi(rt)('get', `/gateway/deliveries/${id}`)).body.delivery;
    expect(after.rules[0].actions).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
  });
});
