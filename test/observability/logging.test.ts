// Secrets never reach the log stream: channel keys, admin tokens and errors with secret fields.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.ts';
import { useTestRuntime, TEST_ADMIN_TOKEN } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

describe('logs', () => {
  const rt = useTestRuntime({ worker: false, logger: createLogger('trace', sink) });

  it('redacts secret fields by path', () => {
    const logger = createLogger('info', sink);
    logger.info({ secret: 'hook-secret-value', headers: { 'x-api-secret-key': 'sk_live_value' } }, 'with secrets');
    const out = lines.join('');
    expect(out).toContain('with secrets');
    expect(out).not.toContain('hook-secret-value');
    expect(out).not.toContain('sk_live_value');
  });

  it('keeps keys and tokens used in requests out of the log stream', async () => {
    const tenant = await createTenant();
    // Real routes: a path that is no route is a 404 before any key is read.
    expect((await publicApi(rt, tenant)('post', '/data-sources/list', {})).status).toBe(200);
    expect((await publicApi(rt, { ...tenant, secretKey: 'sk_wrong_guess_value' })('post', '/data-sources/list', {})).status).toBe(403);
    await rt.http().get('/api/admin/teams').set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
    const out = lines.join('');
    expect(out).not.toContain(tenant.secretKey);
    expect(out).not.toContain('sk_wrong_guess_value');
    expect(out).not.toContain(TEST_ADMIN_TOKEN);
  });
});
