// The gateway's http action goes through the guarded outbound client: with OUTBOUND_ALLOW_PRIVATE
// off a private or loopback target is refused before any connection and not retried, and a 3xx is
// never followed, whatever address the Location names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { startSink, type Sink } from '../outbound/sinks.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'outbound-secret-0123456789';

interface Action {
  index: number;
  status: string;
  attempts: number;
  error: string | null;
  result: { status?: number | null } | null;
}

/** Sends one signed delivery and returns the actions of its one rule once they have all ended. */
async function actionsOf(rt: ReturnType<typeof useTestRuntime>): Promise<Action[]> {
  const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: crypto.randomUUID() } });
  expect(res.status).toBe(202);
  const delivery = await waitFor(async () => {
    const d = (await adminApi(rt)('get', `/gateway/deliveries/${res.body.id}`)).body.delivery;
    const actions: Action[] = d.rules[0]?.actions ?? [];
    return actions.length > 0 && actions.every((a) => a.status === 'succeeded' || a.status === 'failed') && d;
  });
  return [...delivery.rules[0].actions].sort((a: Action, b: Action) => a.index - b.index);
}

describe('the http action with OUTBOUND_ALLOW_PRIVATE=false', () => {
  let sink: Sink;
  const env: Record<string, string> = { OUTBOUND_ALLOW_PRIVATE: 'false' };
  const targets = (port: number) => [`http://127.0.0.1:${port}/hook`, `http://localhost:${port}/hook`, `http://[::1]:${port}/hook`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/hook'];
  beforeAll(async () => {
    sink = await startSink((_req, res) => res.end('reached'));
    const files = gatewayFiles(
      { sources: { relay: { secrets: [SECRET] } } },
      { 'private.json': { name: 'private', actions: targets(sink.port).map((url) => ({ type: 'http', url: `'${url}'`, body: 'payload' })) } },
    );
    Object.assign(env, files.env);
  });
  afterAll(() => sink?.close());
  const rt = useTestRuntime({ env, ...modulesWithGateway() });

  it('refuses private and loopback targets as blocked addresses, at once and without connecting', async () => {
    const actions = await actionsOf(rt);
    expect(actions).toHaveLength(targets(sink.port).length);
    for (const action of actions) {
      expect(action).toMatchObject({ status: 'failed', attempts: 1 });
      expect(action.error).toMatch(/^blocked_address: /);
      expect(action.result?.status).toBeNull();
    }
    expect(sink.connections).toBe(0);
  });
});

describe('the http action and redirects', () => {
  let redirector: Sink;
  let landing: Sink;
  const env: Record<string, string> = {};
  const codes = [301, 302, 303, 307, 308];
  beforeAll(async () => {
    landing = await startSink((_req, res) => res.end('followed'));
    // Loopback is allowed here (the harness default) so the only thing stopping a redirect is
    // that the client does not follow one.
    redirector = await startSink((req, res) => {
      res.writeHead(Number(req.url!.slice(1)), { Location: `${landing.url}/landed` });
      res.end();
    });
    const files = gatewayFiles(
      { sources: { relay: { secrets: [SECRET] } }, vars: { redirector: redirector.url } },
      { 'redirect.json': { name: 'redirect', actions: codes.map((code) => ({ type: 'http', url: `vars.redirector & '/${code}'`, body: 'payload' })) } },
    );
    Object.assign(env, files.env);
  });
  afterAll(async () => {
    await redirector?.close();
    await landing?.close();
  });
  const rt = useTestRuntime({ env, ...modulesWithGateway() });

  it('does not follow 301, 302, 303, 307 or 308 and fails the action without retrying', async () => {
    const actions = await actionsOf(rt);
    expect(actions.map((a) => [a.status, a.attempts, a.error, a.result?.status])).toEqual(codes.map((code) => ['failed', 1, `HTTP ${code} redirect not followed (Location: ${landing.url}/landed)`, code]));
    expect(redirector.received.map((r) => r.url).sort()).toEqual(codes.map((code) => `/${code}`));
    expect(landing.connections).toBe(0);
  });
});
