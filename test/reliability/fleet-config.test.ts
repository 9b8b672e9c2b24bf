// Issue 39 "A gateway reload reaches one instance only": two instances on one database (the second a
// gateway module with its own registry entry and app, as a second process would have), a secret
// rotated through one of them. The fleet poll is driven by the test (tick), never waited for.
import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, TEST_ADMIN_TOKEN } from '../helpers/harness.ts';
import { createApp } from '../../src/app.ts';
import { createGatewayModule } from '../../src/gateway/index.ts';
import { InstanceRegistry } from '../../src/jobs/fleet.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { eventBody, hmacHeader } from '../gateway/support/signing.ts';

const files = gatewayFiles({ sources: { relay: { secrets: ['old-secret-0123456789'] } } });
const writeConfig = (secrets: string[]) => writeFileSync(files.configFile, JSON.stringify({ sources: { relay: { secrets } } }));
// An hour: the timers never fire in this test; it polls each instance itself.
const env = { ...files.env, FLEET_POLL_MS: '3600000' };

describe('a gateway configuration shared by two instances', () => {
  const rt = useTestRuntime({ env, worker: false, ...modulesWithGateway() });
  const second = createGatewayModule({ rulesDebounceMs: 20 });
  let fleet2: InstanceRegistry;
  let http2: () => ReturnType<typeof request>;

  beforeAll(async () => {
    const ctx = rt.runtime.ctx;
    fleet2 = new InstanceRegistry({ role: 'api', clock: ctx.clock, pollMs: 3_600_000, logger: ctx.logger, id: 'second-instance' });
    const ctx2 = { ...ctx, fleet: fleet2 };
    fleet2.start();
    await second.start!(ctx2, { api: true, worker: false });
    const app2 = createApp(ctx2, [second]);
    http2 = () => request(app2.callback());
  });
  afterAll(async () => {
    await fleet2?.stop();
    await second.stop?.();
  });

  const instances = () => [rt.http, http2] as const;
  async function send(http: () => ReturnType<typeof request>, secret: string): Promise<number> {
    const { body, deliveryId } = eventBody({ event: 'conversation.started' });
    const res = await http()
      .post('/gateway/relay')
      .set('Content-Type', 'application/json')
      .set('X-Service-Signature', hmacHeader(body, secret))
      .set('X-Service-Delivery-Id', deliveryId)
      .send(body.toString('utf8'));
    return res.status;
  }
  const admin = (http: () => ReturnType<typeof request>, method: 'get' | 'post', path: string) => http()[method](`/api/admin${path}`).set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
  const tickAll = () => Promise.all([rt.runtime.ctx.fleet.tick(), fleet2.tick()]);

  it('rotates a secret through one instance: the other follows at its next poll, and no delivery is refused meanwhile', async () => {
    for (const http of instances()) {
      expect(await send(http, 'old-secret-0123456789')).toBe(202);
      expect(await send(http, 'new-secret-0123456789')).toBe(401);
    }
    writeConfig(['old-secret-0123456789', 'new-secret-0123456789']);
    const reload = await admin(rt.http, 'post', '/gateway/reload').expect(200);
    expect(reload.body).toMatchObject({ success: true, sources: ['relay'], generation: 1, version: expect.stringMatching(/^[0-9a-f]{12}$/) });

    // Before its poll the second instance still runs the old file, so the old secret works there.
    expect(await send(http2, 'old-secret-0123456789')).toBe(202);
    await fleet2.tick();
    for (const http of instances()) {
      expect(await send(http, 'old-secret-0123456789')).toBe(202);
      expect(await send(http, 'new-secret-0123456789')).toBe(202);
    }

    const view = (await admin(http2, 'get', '/gateway/sources').expect(200)).body;
    expect(view.consistent).toBe(true);
    expect(view.config).toMatchObject({ version: reload.body.version, generation: 1, error: null, instance: 'second-instance' });
    expect(view.instances.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([rt.runtime.ctx.fleet.id, 'second-instance']));
    for (const i of view.instances) expect(i.config).toMatchObject({ version: reload.body.version, generation: 1 });
    expect(JSON.stringify(view)).not.toContain('secret-0123456789');
  });

  it('follows an edit of GATEWAY_CONFIG on every instance without a reload', async () => {
    writeConfig(['new-secret-0123456789']);
    await tickAll();
    for (const http of instances()) {
      expect(await send(http, 'old-secret-0123456789')).toBe(401);
      expect(await send(http, 'new-secret-0123456789')).toBe(202);
    }
  });

  it('keeps the running configuration when the edited file is invalid, and shows the error and the disagreement', async () => {
    const before = (await admin(http2, 'get', '/gateway/sources').expect(200)).body;
    expect(before.consistent).toBe(true);
    writeFileSync(files.configFile, '{ "sources": ');
    await tickAll();
    for (const http of instances()) expect(await send(http, 'new-secret-0123456789')).toBe(202);
    const after = (await admin(rt.http, 'get', '/gateway/sources').expect(200)).body;
    expect(after.config.version).toBe(before.config.version);
    expect(after.config.error).toContain('GATEWAY_CONFIG');
    expect(after.consistent).toBe(false);
    // A reload of an invalid file is refused where it is asked, and tells no one.
    await admin(rt.http, 'post', '/gateway/reload').expect(400);
    writeConfig(['new-secret-0123456789']);
    await tickAll();
    const fixed = (await admin(rt.http, 'get', '/gateway/sources').expect(200)).body;
    expect(fixed.consistent).toBe(true);
    expect(fixed.config.error).toBeNull();
  });
});
