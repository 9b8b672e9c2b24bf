// The OpenAPI document: generated from the routers, it lists exactly the routes the app answers,
// with the request schemas the routes validate with, and the docs page is served from disk.
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { modules } from '../../src/modules.ts';
import type { DomainModule } from '../../src/module.ts';
import { validate } from '../../src/http/validate.ts';
import { documentedMethods, listRoutes, summaryOf, toOpenApiPath } from '../../src/openapi/document.ts';
import { RESPONSE_SCHEMAS } from '../../src/openapi/responses.ts';
import { routersOf } from '../../src/http/routers.ts';
import { TEST_ADMIN_TOKEN } from '../helpers/harness.ts';

// A fixture module with a query schema and a nested path, so the generator is checked beyond
// whatever the domains register today.
const fixtureModule: DomainModule = {
  name: 'openapi-fixture',
  publicRoutes(router) {
    router.get('/fixture/:fixtureId/items', validate(z.object({ limit: z.coerce.number().int().min(1).max(5).default(2), tag: z.string() }), 'query'), (c) => {
      c.body = { success: true };
    });
  },
};

const ANY_UUID = '00000000-0000-4000-8000-000000000000';
/** What the app answers when no route matched (errorMiddleware's fallback). */
const NO_ROUTE = { success: false, code: 'not_found', message: 'Not found' };

describe('OpenAPI document', () => {
  const rt = useTestRuntime({ modules: [...modules, fixtureModule], worker: false });
  let doc: any;
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
    const res = await rt.http().get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ path, method, op: ops[method] })));

  it('is an OpenAPI 3.1 document with both security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiSecretKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Secret-Key' });
    expect(doc.components.securitySchemes.AdminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists every route the routers register, and nothing else', () => {
    const routers = routersOf(rt.app);
    const registered = new Set<string>();
    for (const router of [routers.root, routers.public, routers.admin]) {
      for (const layer of router.stack) {
        if (typeof layer.path !== 'string') continue;
        const methods = layer.methods.map((m) => m.toLowerCase()).filter((m) => m !== 'head');
        // One handler for several methods (the sync hook) is one operation, under POST.
        const shown = methods.length > 1 ? ['post'] : methods;
        for (const method of shown) registered.add(`${method} ${toOpenApiPath(layer.path)}`);
      }
    }
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    expect([...documented].sort()).toEqual([...registered].sort());
    expect(documented.size).toBe(listRoutes(routers).length);
  });

  it('lists the sync hook once, naming the other methods it answers alike, and HEAD as implied by GET', () => {
    expect(documentedMethods(['HEAD', 'GET'])).toEqual({ methods: ['get'], alsoAnswers: [] });
    expect(documentedMethods(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])).toEqual({ methods: ['post'], alsoAnswers: ['get', 'put', 'patch', 'delete'] });
    const hook = doc.paths['/api/public/hooks/{hookId}/{secret}'];
    expect(Object.keys(hook)).toEqual(['post']);
    expect(hook.post['x-relay-methods']).toEqual(['post', 'get', 'put', 'patch', 'delete']);
    expect(hook.post.description).toBe('Answers GET, PUT, PATCH, DELETE alike (one operation, listed once).');
  });

  it('contains the operator routes and the admin tenancy routes', () => {
    for (const key of ['get /healthz', 'get /readyz', 'get /metrics', 'get /openapi.json', 'get /docs', 'post /api/admin/bots', 'post /api/admin/channels/{channelId}/rotate']) {
      const [method, path] = key.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], key).toBeDefined();
    }
  });

  it('every documented operation is answered by a route (no 404 fallback, no 405)', async () => {
    for (const { path, method, op } of operations()) {
      const url = path
        .replace('{channelId}', tenant.channelId)
        .replace('{version}', '1.0')
        .replace(/\{(\w+)\}/g, (_, name) => (name === 'file' ? (path.startsWith('/docs/') ? 'init.js' : 'index.html') : ANY_UUID));
      const res = await (rt.http() as any)[method](url)
        .set(op.security?.[0]?.AdminToken ? { Authorization: 'Bearer wrong-token-wrong-token' } : {})
        .set('X-API-Secret-Key', tenant.secretKey)
        .timeout(5000);
      expect(res.status, `${method} ${path}`).not.toBe(405);
      expect(res.body, `${method} ${path}`).not.toEqual(NO_ROUTE);
    }
  });

  it('an undocumented path gets the 404 fallback, so the previous check can fail', async () => {
    const res = await rt.http().get('/api/admin/no-such-thing').set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
    expect(res.body).toEqual(NO_ROUTE);
  });

  it('documents every list limit as an integer, which a client generator types as a number', () => {
    const limits = operations().flatMap(({ op }) => (op.parameters ?? []).filter((p: any) => p.in === 'query' && p.name === 'limit'));
    expect(limits.length).toBeGreaterThan(5);
    for (const p of limits) expect(p.schema.type).toBe('integer');
    expect(limits.map((p: any) => p.schema)).toContainEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
  });

  it('documents request bodies from the zod schemas, with required fields', () => {
    const createBot = doc.paths['/api/admin/bots'].post;
    expect(createBot.security).toEqual([{ AdminToken: [] }]);
    expect(createBot.requestBody.required).toBe(true);
    const schema = createBot.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['teamId', 'name']));
    expect(schema.required).not.toContain('instructions');
    expect(schema.properties.teamId).toMatchObject({ type: 'string', format: 'uuid' });
    // Domain routes carry their own schemas: the chat message and the webhook configuration.
    const message = doc.paths['/api/public/channels/{channelId}/{version}/message'].post.requestBody.content['application/json'].schema;
    expect(message.required).toEqual(['message']);
    expect(message.properties.conversationId).toMatchObject({ type: 'string', format: 'uuid' });
    expect(message.properties.stream).toMatchObject({ type: 'boolean' });
    const hook = doc.paths['/api/admin/bots/{botId}/webhooks'].post.requestBody.content['application/json'].schema;
    expect(hook.required).toEqual(expect.arrayContaining(['type', 'url']));
    expect(hook.properties.type.enum).toContain('sync.success');
    // A body every field of which is optional is not required.
    expect(doc.paths['/api/admin/bootstrap'].post.requestBody.required).toBe(false);
  });

  it('documents public routes under both versions with a version enum and key security', () => {
    const op = doc.paths['/api/public/channels/{channelId}/{version}/fixture/{fixtureId}/items'].get;
    expect(op.security).toEqual([{ ApiSecretKey: [] }]);
    const byName = Object.fromEntries(op.parameters.map((p: any) => [p.name, p]));
    expect(byName.version).toMatchObject({ in: 'path', required: true, schema: { enum: ['2.0', '1.0'], default: '2.0' } });
    expect(byName.channelId.schema).toMatchObject({ format: 'uuid' });
    expect(byName.fixtureId).toMatchObject({ in: 'path', required: true });
    expect(byName.tag).toMatchObject({ in: 'query', required: true, schema: { type: 'string' } });
    expect(byName.limit).toMatchObject({ in: 'query', required: false, schema: { default: 2, maximum: 5 } });
  });

  it('gives every operation of the real routes a written summary, and keyless routes security: []', () => {
    for (const { path, method, op } of operations()) {
      if (path.includes('/fixture/')) continue;
      expect(op.summary, `${method} ${path}`).not.toBe(`${method.toUpperCase()} ${path}`);
      expect(op.security, `${method} ${path}`).toBeDefined();
    }
    // The fixture has no line in the table: the fallback is what the check above refuses.
    const fixture = '/api/public/channels/{channelId}/{version}/fixture/{fixtureId}/items';
    expect(doc.paths[fixture].get.summary).toBe(`GET ${fixture}`);
    expect(summaryOf({ method: 'get', path: fixture, name: 'Named route' })).toBe('Named route');
    for (const path of ['/healthz', '/docs', '/gateway/{source}', '/api/public/hooks/{hookId}/{secret}']) {
      for (const op of Object.values(doc.paths[path]) as any[]) expect(op.security, path).toEqual([]);
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('declares the reply as JSON, the 2.0 stream as text/event-stream and the 1.0 stream as NDJSON', () => {
    const content = doc.paths['/api/public/channels/{channelId}/{version}/message'].post.responses['200'].content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-ndjson', 'text/event-stream']);
    expect(content['application/json'].schema.required).toEqual(expect.arrayContaining(['success', 'conversationId', 'response', 'sources']));
    expect(content['text/event-stream'].schema.description).toMatch(/^Version 2\.0/);
    expect(content['application/x-ndjson'].schema.description).toMatch(/^Version 1\.0/);
    // A route with no schema of its own (the fixture) falls back to the envelope.
    const fixture = doc.paths['/api/public/channels/{channelId}/{version}/fixture/{fixtureId}/items'].get;
    expect(fixture.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Success' });
  });

  it("documents each public response with a schema that the real responses match, field for field", { timeout: 60_000 }, async () => {
    const api = publicApi(rt, tenant);
    const P = '/api/public/channels/{channelId}/{version}';
    const seen = new Set<string>();
    const check = async (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown) => {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
      const key = `${method} ${P}${path.split('?')[0]}`;
      const parsed = RESPONSE_SCHEMAS[key]!.safeParse(res.body);
      expect(parsed.success, `${key}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      // The document shows the same schema.
      expect(doc.paths[`${P}${path.split('?')[0]}`][method].responses['200'].content['application/json'].schema.properties).toBeDefined();
      seen.add(key);
      return res.body;
    };
    const { dataSource } = await check('post', '/data-sources');
    const dataSourceId = dataSource.id;
    await check('post', '/data-sources/list', {});
    await check('get', `/data-sources?dataSourceId=${dataSourceId}`);
    await check('put', '/data-sources', { dataSourceId, syncInterval: 'week' });
    await check('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'a.md', content: '# A\n\nAlpha.' }] });
    const rows = await check('post', '/data-sources/row/list', { dataSourceId });
    const rowId = rows.dataSourceRows[0].id;
    await check('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${rowId}`);
    await check('put', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: rowId, name: 'a.md', content: '# A\n\nAlpha, again.' }] });
    await check('post', '/data-sources/sync', { dataSourceId });
    const started = await check('post', '/conversation', {});
    await check('post', '/message', { conversationId: started.conversationId, message: 'What is alpha?' });
    await check('post', '/conversations', {});
    await check('post', '/messages', { conversationId: started.conversationId });
    await check('delete', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: rowId }] });
    await check('delete', '/data-sources', { dataSourceId });
    expect([...seen].sort()).toEqual(Object.keys(RESPONSE_SCHEMAS).sort());
  });

  it('serves the docs page and its Swagger UI files from the package, not a CDN', async () => {
    const page = await rt.http().get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/https?:\/\//);
    const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toContain('/docs/swagger-ui-bundle.js');
    for (const src of scripts) {
      const res = await rt.http().get(src);
      expect(res.status, src).toBe(200);
    }
    const init = await rt.http().get('/docs/init.js');
    expect(init.text).toContain("url: '/openapi.json'");
    expect((await rt.http().get('/docs/package.json')).status).toBe(404);
    expect((await rt.http().get('/docs/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});
