// A client generator trusts the document: openapi-typescript generates types from the served
// /openapi.json, and a call of each domain written with openapi-fetch typechecks under strict
// TypeScript. Lines marked @ts-expect-error must fail (a string `limit`, an attempt error read as
// text, a gateway answer's field that does not exist), so loose types fail the compile too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const CALLS = `import createClient from 'openapi-fetch';
import type { paths } from './relay-api.ts';

// JSON answers only: the message route also streams (text/event-stream, NDJSON), read otherwise.
const client = createClient<paths, 'application/json'>({ baseUrl: 'http://127.0.0.1:3000' });
const channel = { channelId: '2b0c8f4e-4d8a-4f5e-9d2c-1a7b3c5d7e9f', version: '2.0' as const };

export async function chat(): Promise<string> {
  const started = await client.POST('/api/public/channels/{channelId}/{version}/conversation', { params: { path: channel, header: { 'Idempotency-Key': 'k-1' } }, body: {} });
  if (!started.data) return started.error.code;
  const reply = await client.POST('/api/public/channels/{channelId}/{version}/message', { params: { path: channel }, body: { conversationId: started.data.conversationId, message: 'Hi' } });
  if (reply.error) {
    const code: 'message_too_long' | 'token_limit_reached' | string = reply.error.code;
    return code;
  }
  return reply.data.response + reply.data.sources.map((s) => s.rowId).join();
}

export async function dataSources(): Promise<number> {
  const list = await client.POST('/api/public/channels/{channelId}/{version}/data-sources/list', { params: { path: channel }, body: { limit: 10 } });
  // @ts-expect-error limit is an integer, not text
  await client.POST('/api/public/channels/{channelId}/{version}/data-sources/list', { params: { path: channel }, body: { limit: '10' } });
  const sync = await client.POST('/api/public/channels/{channelId}/{version}/data-sources/sync', { params: { path: channel }, body: { dataSourceId: 'x' } });
  if (sync.error) return sync.error.message.length;
  return (list.data?.pagination.total ?? 0) + (list.data?.dataSources[0]?.lastSync?.length ?? 0);
}

export async function tenancy(): Promise<string> {
  const boot = await client.POST('/api/admin/bootstrap', { body: { team: 'Acme', bot: 'Support' } });
  if (!boot.data) return boot.error.message;
  const bot = await client.GET('/api/admin/bots/{botId}', { params: { path: { botId: boot.data.botId } } });
  return boot.data.secretKey + (bot.data?.bot.welcomeMessage ?? '');
}

export async function agents(): Promise<string | undefined> {
  const claimed = await client.POST('/api/admin/conversations/{conversationId}/claim', { params: { path: { conversationId: 'c' } }, body: { agent: { name: 'Ana', email: 'ana@example.com' } } });
  return claimed.data?.conversation.agent?.email;
}

export async function syncHooks(): Promise<boolean> {
  const hook = await client.POST('/api/public/hooks/{hookId}/{secret}', { params: { path: { hookId: 'h', secret: 's' } } });
  return hook.data?.success === true;
}

export async function webhooks(): Promise<string | undefined> {
  const log = await client.GET('/api/admin/bots/{botId}/webhooks/{webhookId}/deliveries', { params: { path: { botId: 'b', webhookId: 'w' }, query: { limit: 10 } } });
  const attempt = log.data?.deliveries[0]?.attempts[0];
  // @ts-expect-error an attempt's error is { code, message }, not text
  attempt?.error?.toUpperCase();
  return attempt?.error?.code;
}

export async function gateway(): Promise<string> {
  const sent = await client.POST('/gateway/{source}', {
    params: { path: { source: 'github' }, header: { 'X-Hub-Signature-256': 'sha256=00', 'X-GitHub-Delivery': 'd', 'X-GitHub-Event': 'issues' } },
    body: { action: 'opened' },
  });
  if (sent.error) {
    const code: 'invalid_signature' | 'signature_expired' | string = sent.error.code;
    return code;
  }
  // @ts-expect-error the intake answers no such field
  sent.data.accepted;
  const listed = await client.GET('/api/admin/gateway/deliveries', { params: { query: { source: 'github', limit: 10 } } });
  return sent.data.deliveryId + (listed.data?.deliveries[0]?.receivedAt ?? '');
}

export async function operations(): Promise<boolean> {
  const health = await client.GET('/healthz');
  return health.data?.status === 'ok';
}
`;

describe('a client generated from the OpenAPI document', () => {
  const rt = useTestRuntime({ worker: false });

  it('typechecks a call of each domain, and refuses the wrong ones', { timeout: 180_000 }, async () => {
    const doc = (await rt.http().get('/openapi.json').expect(200)).body;
    const types = astToString(await openapiTS(doc));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-client-'));
    try {
      fs.writeFileSync(path.join(dir, 'relay-api.ts'), types);
      fs.writeFileSync(path.join(dir, 'calls.ts'), CALLS);
      const program = ts.createProgram([path.join(dir, 'calls.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowImportingTsExtensions: true,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
        skipLibCheck: true,
        // The temporary folder has no node_modules: the client library is the project's.
        paths: { 'openapi-fetch': [path.join(ROOT, 'node_modules/openapi-fetch/dist/index.d.mts')] },
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => {
        const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
        return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(problems).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
