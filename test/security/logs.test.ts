// Secrets never reach the log stream (issue 7): sync-hook URLs carry their secret in the path, so
// every logged path is redacted; webhook secrets, gateway source secrets and guessed secrets are
// exercised through the real routes, error paths included, and searched for in everything logged.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, loggablePath } from '../../src/observability/logger.ts';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { eventBody, hmacHeader, postDelivery, sendSigned } from '../gateway/support/signing.ts';
import { startSink, type Sink } from '../gateway/support/servers.ts';

const GATEWAY_SECRET = 'gw-source-secret-4f1e9a7c2b';
const GUESSED_SECRET = 'guessed-secret-8c3d5e7f9a';

const files = gatewayFiles(
  { sources: { relay: { secrets: [GATEWAY_SECRET] }, legacy: { secrets: [GATEWAY_SECRET], allowLegacySecretHeader: true } } },
  // The rule logs everything it is given about the request, headers included.
  { 'log.json': { name: 'log-headers', actions: [{ type: 'log', message: "'gateway saw ' & $string(headers) & ' ' & $string(payload)" }] } },
);

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});
const logged = () => lines.join('');

describe('secrets in the log stream', () => {
  const rt = useTestRuntime({ env: files.env, logger: createLogger('trace', stream), ...modulesWithGateway() });
  const admin = (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => adminApi(rt)(method, path, body);
  const secrets: string[] = [GATEWAY_SECRET, GUESSED_SECRET];
  let tenant: Tenant;
  let sink: Sink;

  beforeAll(async () => {
    tenant = await createTenant();
    sink = await startSink();
  });
  afterAll(async () => {
    await sink?.close();
  });

  const dataSource = async () => (await publicApi(rt, tenant)('post', '/data-sources').expect(200)).body.dataSource.id as string;
  const newSyncHook = async (dataSourceId: string) => {
    const res = await admin('post', `/bots/${tenant.botId}/data-sources/${dataSourceId}/sync-hooks`).expect(201);
    await admin('put', `/bots/${tenant.botId}/sync-hooks/${res.body.hook.id}/enabled`, { enabled: true }).expect(200);
    secrets.push(res.body.secret);
    return { id: res.body.hook.id as string, secret: res.body.secret as string };
  };
  const callHook = (path: string) => rt.http().post(path).send('');

  it('redacts everything after the hook id in a logged sync-hook path, in any letter case', () => {
    expect(loggablePath('/api/public/hooks/3f0c/abcdef')).toBe('/api/public/hooks/3f0c/[redacted]');
    expect(loggablePath('/API/Public/Hooks/3f0c/abcdef/extra')).toBe('/API/Public/Hooks/3f0c/[redacted]');
    expect(loggablePath('//api//public/hooks/3f0c/abcdef')).toBe('//api//public/hooks/3f0c/[redacted]');
    expect(loggablePath('/api/public/channels/3f0c/2.0/conversation')).toBe('/api/public/channels/3f0c/2.0/conversation');
  });

  it('keeps sync-hook secrets out of the logs for valid, wrong, regenerated and failing calls', async () => {
    const hook = await newSyncHook(await dataSource());
    expect((await callHook(`/api/public/hooks/${hook.id}/${hook.secret}`)).status).toBe(200);
    expect((await callHook(`/api/public/hooks/${hook.id}/${GUESSED_SECRET}`)).status).toBe(404);
    const regenerated = await admin('post', `/bots/${tenant.botId}/sync-hooks/${hook.id}/secret`).expect(200);
    secrets.push(regenerated.body.secret);
    expect(regenerated.body.url).toContain(regenerated.body.secret);
    expect((await callHook(`/api/public/hooks/${hook.id}/${hook.secret}`)).status).toBe(404);
    expect([200, 429]).toContain((await callHook(`/api/public/hooks/${hook.id}/${regenerated.body.secret}`)).status);

    // A failure below the route (the job queue refuses the sync) is a 500, logged with its path.
    const failing = [await newSyncHook(await dataSource()), await newSyncHook(await dataSource())];
    const enqueue = vi.spyOn(rt.runtime.ctx.jobs, 'now').mockRejectedValue(new Error('job queue unavailable'));
    try {
      expect((await callHook(`/api/public/hooks/${failing[0]!.id}/${failing[0]!.secret}`)).status).toBe(500);
      // Routes match case-sensitively (issue 21): another spelling is a 404, never run, never an error.
      expect((await callHook(`/API/Public/Hooks/${failing[1]!.id}/${failing[1]!.secret}`)).status).toBe(404);
    } finally {
      enqueue.mockRestore();
    }
    const errors = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'unhandled error');
    expect(errors.map((e) => e.path)).toEqual([`/api/public/hooks/${failing[0]!.id}/[redacted]`]);
  });

  it('keeps webhook secrets out of the logs through creation, regeneration, test sends and deliveries', async () => {
    const created = await admin('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/hook` }).expect(201);
    const hookPath = `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}`;
    secrets.push(created.body.secret);
    const regenerated = await admin('post', `${hookPath}/secret`).expect(200);
    secrets.push(regenerated.body.secret);
    const sent = await admin('post', `${hookPath}/test`).expect(200);
    expect(sent.body.test.status).toBe(200);
    // A failing target: the test send reports it, and the delivery job retries and logs nothing secret.
    sink.statuses = [500];
    expect((await admin('post', `${hookPath}/test`).expect(200)).body.test.status).toBe(500);
    await admin('put', `${hookPath}/enabled`, { enabled: true }).expect(200);
    await publicApi(rt, tenant)('post', '/conversation', {}).expect(200);
    await waitFor(() => sink.requests.filter((r) => r.headers['x-service-test'] !== 'true').length > 0);
    expect(sink.requests.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps gateway source secrets out of the logs for signed, legacy-header and badly signed deliveries', async () => {
    const signed = sendSigned(rt, 'relay', GATEWAY_SECRET, { event: 'conversation.started' });
    expect((await signed).status).toBe(202);
    const { body } = eventBody({ event: 'conversation.started' });
    expect((await postDelivery(rt, 'relay', body, { 'X-Service-Signature': hmacHeader(body, GUESSED_SECRET) })).status).toBe(401);
    expect((await postDelivery(rt, 'legacy', body, { 'X-Secret-Key': GATEWAY_SECRET })).status).toBe(202);
    expect((await postDelivery(rt, 'legacy', eventBody({}).body, { 'X-Secret-Key': GUESSED_SECRET })).status).toBe(401);
    // The log action has run for both accepted deliveries, so their headers went through the logger.
    await waitFor(() => logged().split('gateway saw').length - 1 >= 2);
    expect(logged()).toContain(signed.deliveryId);
  });

  it('never writes any of those secrets anywhere in the captured log stream', () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(secrets.length).toBe(8); // gateway, guessed, four sync-hook, two webhook secrets
    const out = logged();
    for (const secret of secrets) expect(out, `secret ${secret.slice(0, 6)}… was logged`).not.toContain(secret);
  });
});
