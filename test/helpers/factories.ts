// One-line tenants for tests: a team, a bot and an API channel, with a supertest helper bound to them.
import type request from 'supertest';
import { provisionTenant } from '../../src/platform/service.ts';
import type { PlanName } from '../../src/plans.ts';
import type { TestRuntime } from './harness.ts';
import { TEST_ADMIN_TOKEN } from './harness.ts';

export interface Tenant {
  teamId: string;
  botId: string;
  channelId: string;
  secretKey: string;
}

export async function createTenant(opts: { plan?: PlanName; bot?: string } = {}): Promise<Tenant> {
  return provisionTenant({ team: 'Test team', bot: opts.bot ?? 'Test bot', plan: opts.plan });
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** Calls the public API of a tenant: api(t, 'post', '/data-sources', body, '1.0'). */
export function publicApi(rt: TestRuntime, tenant: Tenant, version: '1.0' | '2.0' = '2.0') {
  return (method: Method, path: string, body?: unknown): request.Test => {
    const req = rt.http()[method](`/api/public/channels/${tenant.channelId}/${version}${path}`).set('X-API-Secret-Key', tenant.secretKey);
    return body === undefined ? req : req.send(body as object);
  };
}

export function adminApi(rt: TestRuntime) {
  return (method: Method, path: string, body?: unknown): request.Test => {
    const req = rt.http()[method](`/api/admin${path}`).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
    return body === undefined ? req : req.send(body as object);
  };
}
