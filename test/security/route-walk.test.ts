// Every registered route, reached in every spelling a client can send, refuses a caller without
// credentials (issue 21, F1/F2). The routes come from the app's own routers, so a route added
// later is walked without editing this file. Requests go over a real socket with the path sent
// byte for byte (no client-side normalisation of `..`, `//` or case).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type Router from '@koa/router';
import { useListeningApp, useTestRuntime } from '../helpers/harness.ts';
import { createTenant, type Tenant } from '../helpers/factories.ts';
import { routersOf } from '../../src/http/routers.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';

const files = gatewayFiles({ sources: { relay: { secrets: ['route-walk-secret-0123'] } } }, {});

/** Root routes that are public by design: health, metrics, the API reference and the console's static files. */
const OPEN_BY_DESIGN = [/^\/$/, /^\/healthz$/, /^\/readyz$/, /^\/metrics$/, /^\/openapi\.json$/, /^\/docs/, /^\/console/, /^\/favicon\.ico$/];

interface Route {
  method: string;
  path: string;
}

function routesOf(router: Router<any>): { method: string; template: string }[] {
  const out: { method: string; template: string }[] = [];
  for (const layer of router.stack) {
    const methods = layer.methods.filter((m) => m !== 'HEAD');
    // router.all() registers every verb; two of them are enough to walk it.
    const walked = methods.length > 10 ? ['GET', 'POST'] : methods;
    for (const method of walked) out.push({ method, template: String(layer.path) });
  }
  return out;
}

/** A concrete path: the real channel (so public auth is reached), random UUIDs for other params. */
function fill(template: string, tenant: Tenant): string {
  return template
    .replace(':botId', tenant.botId)
    .replace(':channelId', tenant.channelId)
    .replace(':version', '2.0')
    .replace(/\{\*[A-Za-z]+\}/g, 'x')
    .replace(/:[A-Za-z]+/g, () => randomUUID());
}

/** The spellings of one path that must never get further than the canonical one does. */
function variants(path: string): string[] {
  const segments = path.split('/').slice(1);
  const out = new Set<string>([path, path.toUpperCase(), `${path}/`, `/${path}`, path.replace('/', '//')]);
  segments.forEach((segment, i) => {
    const letter = segment.search(/[a-z]/);
    if (letter < 0) return;
    const at = (s: string) => ['', ...segments.slice(0, i), s, ...segments.slice(i + 1)].join('/');
    out.add(at(segment[0]!.toUpperCase() + segment.slice(1)));
    out.add(at(segment.slice(0, letter) + '%' + segment.charCodeAt(letter).toString(16) + segment.slice(letter + 1)));
    out.add(at(`x/../${segment}`));
    out.add(at(`./${segment}`));
    if (i > 0) out.add(['', ...segments.slice(0, i)].join('/') + '//' + segments.slice(i).join('/'));
  });
  out.add(path.replace(/\//g, '%2F').replace(/^%2F/, '/'));
  return [...out];
}

function send(baseUrl: string, method: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, headers: body ? { 'content-type': 'application/json', 'content-length': '2' } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('walking every route without credentials', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const server = useListeningApp(rt);
  let tenant: Tenant;
  let routes: Route[];

  beforeAll(async () => {
    tenant = await createTenant();
    const routers = routersOf(rt.app);
    const all = [...routesOf(routers.root), ...routesOf(routers.public), ...routesOf(routers.admin), ...routesOf(routers.consolePublic)];
    routes = all
      .filter((r) => !OPEN_BY_DESIGN.some((re) => re.test(r.template)))
      .map((r) => ({ method: r.method, path: fill(r.template, tenant) }));
  });

  it('finds the public, admin and self-authenticating root routes in the routers', () => {
    const paths = routes.map((r) => r.path);
    expect(paths.filter((p) => p.startsWith('/api/admin/')).length).toBeGreaterThan(20);
    expect(paths.filter((p) => p.startsWith(`/api/public/channels/${tenant.channelId}/2.0/`)).length).toBeGreaterThan(10);
    // The console's mirror of the public API, with the tenant's real bot and channel: only the admin token opens it.
    expect(paths.filter((p) => p.startsWith(`/api/admin/bots/${tenant.botId}/channels/${tenant.channelId}/public/2.0/`)).length).toBeGreaterThan(10);
    expect(paths.some((p) => p.startsWith('/api/public/hooks/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/gateway/'))).toBe(true);
  });

  it('answers 401, 403 or 404 in the JSON envelope for every route and spelling, never 2xx or 5xx', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const path of variants(route.path)) {
        const res = await send(server.baseUrl, route.method, path);
        sent++;
        let envelope: { success?: unknown } = {};
        try {
          envelope = JSON.parse(res.body);
        } catch {
          /* reported below */
        }
        if (![401, 403, 404].includes(res.status) || envelope.success !== false) failures.push(`${route.method} ${path} -> ${res.status} ${res.body.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(routes.length * 8);
  });

  it('still lets the canonical spelling through with credentials', async () => {
    const res = await rt.http().post(`/api/public/channels/${tenant.channelId}/2.0/data-sources/list`).set('X-API-Secret-Key', tenant.secretKey).send({});
    expect(res.status).toBe(200);
    const admin = await rt.http().get('/api/admin/teams').set('Authorization', 'Bearer test-admin-token-0123456789');
    expect(admin.status).toBe(200);
  });
});
