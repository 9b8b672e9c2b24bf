// `relay webhooks …` as a process against the test database and a real local sink: create, update,
// enable, test-send, list deliveries, resend, regenerate the secret, disable, and clear errors.
import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayCli, useListeningApp, useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, type Tenant } from '../helpers/factories.ts';
import { getDelivery } from '../../src/webhooks/deliveries.ts';
import { startSink, type ReceivedRequest, type Sink } from './sink.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const CLI_TIMEOUT = { timeout: 90_000 };

describe('relay webhooks CLI', () => {
  const rt = useTestRuntime({ worker: false });
  let sink: Sink;
  let tenant: Tenant;
  // The shell has no OUTBOUND_ALLOW_PRIVATE: the server's setting (on in tests) is the one that counts.
  const cli = relayCli(rt, useListeningApp(rt), { OUTBOUND_ALLOW_PRIVATE: 'false' });
  const relay = (...args: string[]) => cli('webhooks', ...args);
  const relayJson = async (...args: string[]) => JSON.parse((await relay(...args)).stdout);
  const at = (path: string) => sink.requests.filter((r) => r.path === path);
  const signedWith = (secret: string, req: ReceivedRequest) => verify(secret, req.raw.toString('utf8'), String(req.headers['x-service-signature']));

  // Filled in by each step for the next: the tests of this file run in order.
  let webhookId: string;
  let secret: string;
  let deliveryId: string;

  beforeAll(async () => {
    sink = await startSink(() => ({ status: 200, body: 'ok' }));
    tenant = await createTenant({ bot: 'CLI bot' });
  });
  afterAll(() => sink?.close());

  it('creates a disabled hook and prints it with its secret', CLI_TIMEOUT, async () => {
    const created = await relayJson('create', '--bot', tenant.botId, '--type', 'conversation.started', '--url', `${sink.url}/cli`);
    expect(created).toMatchObject({ botId: tenant.botId, type: 'conversation.started', enabled: false, url: `${sink.url}/cli`, customPayload: { enabled: false } });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.secret).toMatch(/^whsec_/);
    ({ id: webhookId, secret } = created);
  });

  it('updates the URL and the custom payload from flags, with headers given as JSON', CLI_TIMEOUT, async () => {
    const updated = await relayJson(
      'update', webhookId, '--bot', tenant.botId, '--url', `${sink.url}/cli/updated`,
      '--custom', '--headers', '{"X-Tag":"cli"}', '--body', 'delivery={{deliveryId}}',
    );
    expect(updated).toMatchObject({ id: webhookId, enabled: false, url: `${sink.url}/cli/updated`, customPayload: { enabled: true, method: 'POST', headers: { 'X-Tag': 'cli' }, body: 'delivery={{deliveryId}}' } });
    expect(updated.secret).toBeUndefined();
  });

  it('sets the issue-19 delivery options from flags, and goes back to the service schedule with "default"', CLI_TIMEOUT, async () => {
    const set = await relayJson('update', webhookId, '--bot', tenant.botId, '--standard-webhooks', '--retry-delays', '5,60', '--concurrency', '3', '--rate', '2.5');
    expect(set).toMatchObject({ standardWebhooks: true, retryDelaysSeconds: [5, 60], concurrency: 3, ratePerSecond: 2.5 });
    const reset = await relayJson('update', webhookId, '--bot', tenant.botId, '--no-standard-webhooks', '--retry-delays', 'default');
    expect(reset).toMatchObject({ standardWebhooks: false, retryDelaysSeconds: null, concurrency: 3 });
    await expect(relay('update', webhookId, '--bot', tenant.botId, '--retry-delays', Array(10).fill('1').join(','))).rejects.toMatchObject({ stderr: expect.stringMatching(/validation_failed/) });
  });

  it('enables the hook', CLI_TIMEOUT, async () => {
    expect(await relayJson('enable', webhookId, '--bot', tenant.botId, '--resend-failed')).toMatchObject({ id: webhookId, enabled: true, failingSince: null, resent: 0 });
  });

  it('test-sends to the sink with X-Service-Test and prints the status, body and delivery id', CLI_TIMEOUT, async () => {
    const result = await relayJson('test', webhookId, '--bot', tenant.botId);
    expect(result).toMatchObject({ status: 200, body: 'ok', error: null, unresolved: [], request: { method: 'POST', url: `${sink.url}/cli/updated` } });
    const [req] = at('/cli/updated');
    expect(req!.headers['x-service-test']).toBe('true');
    expect(req!.headers['x-service-delivery-id']).toBe(result.deliveryId);
    expect(req!.headers['x-tag']).toBe('cli');
    expect(req!.raw.toString()).toBe(`delivery=${result.deliveryId}`);
    expect(await signedWith(secret, req!)).toBe(true);
  });

  it('lists the deliveries of a real event with their attempts', CLI_TIMEOUT, async () => {
    await rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
    const [live] = await waitFor(() => at('/cli/updated').length === 2 && at('/cli/updated').slice(1));
    expect(live!.headers['x-service-test']).toBeUndefined();
    deliveryId = String(live!.headers['x-service-delivery-id']);
    await waitFor(async () => (await getDelivery(tenant.botId, webhookId, deliveryId)).status === 'delivered');

    const listed = await relayJson('deliveries', webhookId, '--bot', tenant.botId);
    // Oldest first: the earlier test send's logged record, then the live delivery.
    expect(listed.pagination).toMatchObject({ total: 2 });
    expect(listed.deliveries).toHaveLength(2);
    expect(listed.deliveries[0]).toMatchObject({ test: true, attemptCount: 1 });
    expect(listed.deliveries[1]).toMatchObject({ id: deliveryId, webhookId, event: 'conversation.started', status: 'delivered', attemptCount: 1, test: false });
    expect(listed.deliveries[1].attempts).toEqual([expect.objectContaining({ number: 1, status: 'succeeded', httpStatus: 200, responseBody: 'ok' })]);
  });

  it('resends a delivery with the same deliveryId and bytes', CLI_TIMEOUT, async () => {
    const queued = await relayJson('resend', webhookId, deliveryId, '--bot', tenant.botId);
    expect(queued).toMatchObject({ id: deliveryId });
    const resent = await waitFor(async () => {
      const d = (await relayJson('deliveries', webhookId, '--bot', tenant.botId)).deliveries.find((x: { id: string }) => x.id === deliveryId);
      return d?.status === 'delivered' && d.attemptCount === 2 && d;
    });
    expect(resent.attempts.map((a: { number: number; status: string }) => [a.number, a.status])).toEqual([
      [1, 'succeeded'],
      [2, 'succeeded'],
    ]);
    const sent = at('/cli/updated').filter((r) => r.headers['x-service-delivery-id'] === deliveryId);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.raw.equals(sent[0]!.raw)).toBe(true);
    expect(sent[1]!.headers['x-service-test']).toBeUndefined();
  });

  it('regenerates the secret, and the next send is signed with the new one only', CLI_TIMEOUT, async () => {
    const rotated = await relayJson('regenerate-secret', webhookId, '--bot', tenant.botId);
    expect(rotated).toMatchObject({ id: webhookId, enabled: true });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    const result = await relayJson('test', webhookId, '--bot', tenant.botId);
    const req = at('/cli/updated').find((r) => r.headers['x-service-delivery-id'] === result.deliveryId)!;
    expect(req.headers['x-secret-key']).toBe(rotated.secret);
    expect(await signedWith(rotated.secret, req)).toBe(true);
    expect(await signedWith(secret, req)).toBe(false);
  });

  it('disables the hook', CLI_TIMEOUT, async () => {
    expect(await relayJson('disable', webhookId, '--bot', tenant.botId)).toMatchObject({ id: webhookId, enabled: false });
  });

  it('exits 1 with one line naming webhook_not_found for an unknown hook id', CLI_TIMEOUT, async () => {
    const notFound = { code: 1, stdout: '', stderr: 'relay: 404 webhook_not_found: Webhook not found\n' };
    await expect(relay('enable', UNKNOWN_ID, '--bot', tenant.botId)).rejects.toMatchObject(notFound);
    await expect(relay('test', UNKNOWN_ID, '--bot', tenant.botId)).rejects.toMatchObject(notFound);
    await expect(relay('resend', UNKNOWN_ID, deliveryId, '--bot', tenant.botId)).rejects.toMatchObject(notFound);
  });
});
