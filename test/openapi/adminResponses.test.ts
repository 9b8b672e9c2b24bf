// The admin API's and the JSON root routes' response schemas in the OpenAPI document, checked
// against real responses: every admin operation is called once against real FerretDB, a real
// HTTP sink (webhooks) and a real signed gateway delivery, and each body must parse with the
// documented strict schema, so a presenter field added or dropped without the schema fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, publicApi } from '../helpers/factories.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { sendSigned } from '../gateway/support/signing.ts';
import { startSink, type Sink } from '../gateway/support/servers.ts';
import { ADMIN_RESPONSE_SCHEMAS } from '../../src/openapi/adminResponses.ts';

const SECRET = 'gateway-secret-0123456789';
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] }, plain: { scheme: 'hmac', secrets: [SECRET], hmac: { header: 'X-Sig', algorithm: 'sha1', idHeader: 'X-Id' } } } }, { 'log.json': { name: 'log-all', actions: [{ type: 'log', message: "'seen ' & event" }] } });
const A = '/api/admin';
/** Not JSON envelopes: the Prometheus text, the document itself, and the HTML pages and their files. */
const NOT_ENVELOPES = ['get /metrics', 'get /openapi.json', 'get /docs', 'get /docs/{file}', 'get /', 'get /console', 'get /console/{file}', 'get /favicon.ico'];

describe('OpenAPI admin and root response schemas', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  let doc: any;
  let sink: Sink;
  beforeAll(async () => {
    doc = (await rt.http().get('/openapi.json')).body;
    sink = await startSink();
  });
  afterAll(() => sink?.close());

  const successOf = (op: any) => Object.entries(op.responses as Record<string, any>).find(([status]) => status.startsWith('2'))?.[1];
  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method} ${path}`, op })));

  it('documents a schema of its own for every admin operation and JSON root route', () => {
    const envelopeOnly = operations()
      .filter(({ key }) => !key.includes(' /api/public/channels/') && !NOT_ENVELOPES.includes(key))
      .filter(({ op }) => successOf(op)?.content?.['application/json']?.schema.$ref !== undefined)
      .map(({ key }) => key);
    expect(envelopeOnly).toEqual([]);
    // The others say what they send instead.
    expect(Object.keys(doc.paths['/metrics'].get.responses['200'].content)).toEqual(['text/plain']);
    expect(Object.keys(doc.paths['/docs'].get.responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(doc.paths['/'].get.responses)).toContain('302');
    expect(doc.paths[`${A}/bootstrap`].post.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error409' });
    // And no schema is kept for an operation that no longer exists.
    const documented = new Set(operations().map(({ key }) => key));
    expect(Object.keys(ADMIN_RESPONSE_SCHEMAS).filter((key) => !documented.has(key))).toEqual([]);
    expect(doc.paths[`${A}/teams`].get.responses['200'].content['application/json'].schema.properties.teams.items.required).toEqual(
      expect.arrayContaining(['id', 'name', 'plan', 'limits', 'usage', 'createdAt']),
    );
  });

  it('a strict schema refuses a body with a field missing or one too many, so the walk below can fail', () => {
    const schema = ADMIN_RESPONSE_SCHEMAS[`get ${A}/bots/{botId}/sync-hooks/{hookId}`]!;
    const hook = { id: 'h', botId: 'b', dataSourceId: 'd', enabled: true, createdAt: null, updatedAt: null };
    expect(schema.safeParse({ success: true, hook }).success).toBe(true);
    expect(schema.safeParse({ success: true, hook: { ...hook, secret: 's' } }).success).toBe(false);
    const { enabled: _dropped, ...missing } = hook;
    expect(schema.safeParse({ success: true, hook: missing }).success).toBe(false);
  });

  it('every admin operation and JSON root route answers with a body its documented schema accepts', { timeout: 120_000 }, async () => {
    const seen = new Set<string>();
    /** Calls `method url`, expects `status`, and parses the body with the schema of `key` (method + documented path). */
    const check = async (key: string, status: number, call: Promise<{ status: number; body: any }>) => {
      const res = await call;
      expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(status);
      const schema: z.ZodType | undefined = ADMIN_RESPONSE_SCHEMAS[key];
      expect(schema, key).toBeDefined();
      const parsed = schema!.safeParse(res.body);
      expect(parsed.success, `${key}: ${JSON.stringify(parsed.error?.issues)} in ${JSON.stringify(res.body)}`).toBe(true);
      const [method, path] = key.split(' ') as [string, string];
      // The document gives this answer under the status the route really answered.
      expect(doc.paths[path][method].responses[String(status)].content['application/json'].schema.properties, key).toBeDefined();
      seen.add(key);
      return res.body;
    };
    const admin = adminApi(rt);
    const http = rt.http();

    await check('get /healthz', 200, http.get('/healthz'));
    await check('get /readyz', 200, http.get('/readyz'));

    // Tenancy.
    const tenant = await check(`post ${A}/bootstrap`, 201, admin('post', '/bootstrap', { team: 'Walk', bot: 'Walker' }));
    const { team } = await check(`post ${A}/teams`, 201, admin('post', '/teams', { name: 'Second', plan: 'pro' }));
    await check(`get ${A}/teams`, 200, admin('get', '/teams'));
    await check(`get ${A}/teams/{teamId}`, 200, admin('get', `/teams/${team.id}`));
    await check(`put ${A}/teams/{teamId}/plan`, 200, admin('put', `/teams/${team.id}/plan`, { plan: 'enterprise', limits: { chatTokens: 5 } }));
    const { bot } = await check(`post ${A}/bots`, 201, admin('post', '/bots', { teamId: team.id, name: 'Other' }));
    await check(`get ${A}/bots`, 200, admin('get', `/bots?teamId=${team.id}`));
    await check(`get ${A}/bots/{botId}`, 200, admin('get', `/bots/${bot.id}`));
    await check(`patch ${A}/bots/{botId}`, 200, admin('patch', `/bots/${bot.id}`, { maxMessageLength: 500 }));
    const { channel } = await check(`post ${A}/channels`, 201, admin('post', '/channels', { botId: bot.id }));
    await check(`get ${A}/channels`, 200, admin('get', `/channels?botId=${bot.id}`));
    await check(`post ${A}/channels/{channelId}/rotate`, 200, admin('post', `/channels/${channel.channelId}/rotate`));
    await check(`put ${A}/channels/{channelId}/enabled`, 200, admin('put', `/channels/${channel.channelId}/enabled`, { enabled: false }));

    // Data sources and sync hooks (the hook's trigger is a root route).
    const api = publicApi(rt, tenant);
    const dataSourceId = (await api('post', '/data-sources')).body.dataSource.id;
    const B = `/bots/${tenant.botId}`;
    await check(`get ${A}/bots/{botId}/data-sources`, 200, admin('get', `${B}/data-sources`));
    await check(`get ${A}/bots/{botId}/data-sources/{dataSourceId}`, 200, admin('get', `${B}/data-sources/${dataSourceId}`));
    await check(`patch ${A}/bots/{botId}/data-sources/{dataSourceId}`, 200, admin('patch', `${B}/data-sources/${dataSourceId}`, { name: 'Handbook' }));
    const issued = await check(`post ${A}/bots/{botId}/data-sources/{dataSourceId}/sync-hooks`, 201, admin('post', `${B}/data-sources/${dataSourceId}/sync-hooks`));
    const H = `${B}/sync-hooks/${issued.hook.id}`;
    await check(`get ${A}/bots/{botId}/sync-hooks`, 200, admin('get', `${B}/sync-hooks`));
    await check(`get ${A}/bots/{botId}/sync-hooks/{hookId}`, 200, admin('get', H));
    await check(`put ${A}/bots/{botId}/sync-hooks/{hookId}/enabled`, 200, admin('put', `${H}/enabled`, { enabled: true }));
    await check('post /api/public/hooks/{hookId}/{secret}', 200, http.post(new URL(issued.url).pathname));
    await check(`post ${A}/bots/{botId}/sync-hooks/{hookId}/secret`, 200, admin('post', `${H}/secret`));
    await check(`delete ${A}/bots/{botId}/sync-hooks/{hookId}`, 200, admin('delete', H));

    // Webhooks, with a real delivery to a local sink.
    const created = await check(`post ${A}/bots/{botId}/webhooks`, 201, admin('post', `${B}/webhooks`, { type: 'conversation.started', url: `${sink.url}/hook` }));
    const W = `${B}/webhooks/${created.webhook.id}`;
    await check(`get ${A}/bots/{botId}/webhooks`, 200, admin('get', `${B}/webhooks`));
    await check(`get ${A}/bots/{botId}/webhooks/{webhookId}`, 200, admin('get', W));
    await check(`patch ${A}/bots/{botId}/webhooks/{webhookId}`, 200, admin('patch', W, { retryDelaysSeconds: [1, 2], concurrency: 2, ratePerSecond: 5 }));
    await check(`put ${A}/bots/{botId}/webhooks/{webhookId}/enabled`, 200, admin('put', `${W}/enabled`, { enabled: true }));
    await check(`post ${A}/bots/{botId}/webhooks/{webhookId}/secret`, 200, admin('post', `${W}/secret`));
    await check(`post ${A}/bots/{botId}/webhooks/{webhookId}/test`, 200, admin('post', `${W}/test`));

    // Chat: a conversation started on the public API fires the hook; an agent claims, replies, releases.
    const { conversationId } = (await api('post', '/conversation', {})).body;
    const C = `/conversations/${conversationId}`;
    await check(`get ${A}/bots/{botId}/conversations`, 200, admin('get', `${B}/conversations?state=Open`));
    await check(`post ${A}/conversations/{conversationId}/claim`, 200, admin('post', `${C}/claim`, { agent: { name: 'Ana', email: 'ana@example.com' } }));
    await check(`post ${A}/conversations/{conversationId}/messages`, 201, admin('post', `${C}/messages`, { message: 'Ana here.' }));
    await check(`get ${A}/conversations/{conversationId}/messages`, 200, admin('get', `${C}/messages`));
    await check(`post ${A}/conversations/{conversationId}/release`, 200, admin('post', `${C}/release`));

    const delivery = await waitFor(async () => {
      const list = (await admin('get', `${W}/deliveries`)).body.deliveries;
      return list.find((d: { test: boolean; status: string }) => !d.test && d.status !== 'pending');
    });
    await check(`get ${A}/bots/{botId}/webhooks/{webhookId}/deliveries`, 200, admin('get', `${W}/deliveries`));
    await check(`get ${A}/bots/{botId}/webhooks/{webhookId}/deliveries/{deliveryId}`, 200, admin('get', `${W}/deliveries/${delivery.id}`));
    await check(`post ${A}/bots/{botId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend`, 202, admin('post', `${W}/deliveries/${delivery.id}/resend`));
    await check(`delete ${A}/bots/{botId}/webhooks/{webhookId}`, 200, admin('delete', W));

    // Gateway: a signed delivery, processed by the log rule, then read, replayed and the rules reloaded.
    const sent = await check('post /gateway/{source}', 202, sendSigned(rt, 'relay', SECRET, { event: 'conversation.started' }, { event: 'conversation.started' }));
    await waitFor(async () => (await admin('get', `/gateway/deliveries/${sent.id}`)).body.delivery?.rules.length > 0);
    await check(`get ${A}/gateway/deliveries`, 200, admin('get', '/gateway/deliveries'));
    await check(`get ${A}/gateway/deliveries/{id}`, 200, admin('get', `/gateway/deliveries/${sent.id}`));
    await check(`post ${A}/gateway/deliveries/{id}/replay`, 202, admin('post', `/gateway/deliveries/${sent.id}/replay`));
    const { sources } = await check(`get ${A}/gateway/sources`, 200, admin('get', '/gateway/sources'));
    expect(sources.map((s: { hmac: unknown }) => s.hmac === null).sort()).toEqual([false, true]);
    await check(`get ${A}/gateway/rules`, 200, admin('get', '/gateway/rules'));
    await check(`post ${A}/gateway/reload`, 200, admin('post', '/gateway/reload'));

    expect([...seen].sort()).toEqual(Object.keys(ADMIN_RESPONSE_SCHEMAS).sort());
  });
});
