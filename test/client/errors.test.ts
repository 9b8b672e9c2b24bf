// Refusals through the client against the real app on both versions: every one is a RelayApiError
// carrying the HTTP status and the body's stable code, for JSON calls and for both stream formats.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, useListeningApp } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { createRelayClient, RelayApiError, type RelayClient } from '../../src/client/index.ts';
import { clientFor, failure } from './support.ts';

describe.each(['1.0', '2.0'] as const)('refusals through the client on %s', (version) => {
  // No worker: a started sync stays `syncing`, so a second start is refused every time.
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let client: RelayClient;
  beforeAll(async () => {
    tenant = await createTenant();
    client = clientFor(app.baseUrl, tenant, version).client;
  });

  it('gives 403 forbidden for a wrong key, on a JSON call and before a stream opens', async () => {
    const wrong = clientFor(app.baseUrl, tenant, version, 'not-the-key').client;
    const calls = [() => wrong.dataSources.list(), () => wrong.chat.streamMessage({ message: 'hi' }), () => wrong.chat.streamCompletion({ message: 'hi' })];
    for (const call of calls) {
      const err = await failure(call());
      expect(err).toBeInstanceOf(RelayApiError);
      expect(err).toMatchObject({ status: 403, code: 'forbidden', message: expect.any(String) });
    }
  });

  it('gives 404 for an unknown data source on get, sync and rows, and for an unknown channel', async () => {
    const unknown = randomUUID();
    for (const call of [() => client.dataSources.get(unknown), () => client.dataSources.sync(unknown), () => client.rows.add(unknown, [{ name: 'a', content: 'b' }])]) {
      expect(await failure(call())).toMatchObject({ status: 404, code: 'data_source_not_found' });
    }
    const noChannel = createRelayClient({ baseUrl: app.baseUrl, channelId: randomUUID(), secretKey: tenant.secretKey, version });
    expect(await failure(noChannel.dataSources.list())).toMatchObject({ status: 404, code: 'channel_not_found' });
  });

  it('gives 400 with the validation code for a malformed id, an empty message and an empty row list', async () => {
    const { id } = await client.dataSources.create();
    for (const call of [() => client.dataSources.get('not-a-uuid'), () => client.chat.sendMessage({ message: '' }), () => client.rows.add(id, [])]) {
      const err = await failure(call());
      expect(err).toBeInstanceOf(RelayApiError);
      expect(err.status).toBe(400);
      expect(err.code).toBe('validation_failed');
    }
    expect(await failure(client.chat.streamMessage({ message: '' }))).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('gives 429 already_syncing for a second sync start while one runs', async () => {
    const { id } = await client.dataSources.create();
    await client.dataSources.sync(id);
    expect(await failure(client.dataSources.sync(id))).toMatchObject({ status: 429, code: 'already_syncing' });
  });

  it('gives the token-limit 429 as a typed error for a conversation start and for both streams', async () => {
    const limited = await createTenant();
    await adminApi(rt)('put', `/teams/${limited.teamId}/plan`, { plan: 'standard', limits: { chatTokens: 0 } }).expect(200);
    const limitedClient = clientFor(app.baseUrl, limited, version).client;
    const start = await failure(limitedClient.chat.startConversation());
    expect(start).toBeInstanceOf(RelayApiError);
    expect(start).toMatchObject({ status: 429, code: 'token_limit_reached', details: { statusMessage: 'Token limit reached' } });
    for (const call of [() => limitedClient.chat.streamMessage({ message: 'hi' }), () => limitedClient.chat.streamCompletion({ message: 'hi' })]) {
      expect(await failure(call())).toMatchObject({ status: 429, code: 'token_limit_reached' });
    }
  });

  it('reports an unreachable server as status 0 when opening a stream', async () => {
    const offline = createRelayClient({ baseUrl: 'http://127.0.0.1:1', channelId: tenant.channelId, secretKey: tenant.secretKey, version, timeoutMs: 2000 });
    expect(await failure(offline.chat.streamMessage({ message: 'hi' }))).toMatchObject({ status: 0, code: 'network_error' });
  });
});
