// GitHub's webhook form defaults to application/x-www-form-urlencoded: the event JSON arrives as the
// `payload` field and X-Hub-Signature-256 covers the form bytes. Signed here by GitHub's own library.
import { randomUUID } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { hmacHeader } from './support/signing.ts';

const SECRET = 'gh-form-secret';
const files = gatewayFiles(
  { sources: { github: { scheme: 'github', secrets: [SECRET] }, relay: { scheme: 'relay', secrets: ['relay-secret'] } } },
  { 'issues.json': { name: 'github-issue-log', sources: ['github'], events: ['issues'], actions: [{ type: 'log', message: "'issue ' & $string(payload.issue.number)" }] } },
);
const FORM = 'application/x-www-form-urlencoded';

describe('GitHub form-encoded deliveries', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const post = (source: string, type: string, body: string, headers: Record<string, string>) => {
    let req = rt.http().post(`/gateway/${source}`).set('Content-Type', type);
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    return req.send(body);
  };
  const formOf = (event: unknown) => new URLSearchParams({ payload: JSON.stringify(event) }).toString();
  const githubHeaders = async (body: string, extra: Record<string, string> = {}) => ({
    'X-Hub-Signature-256': await githubSign(SECRET, body),
    'X-GitHub-Delivery': randomUUID(),
    'X-GitHub-Event': 'issues',
    ...extra,
  });

  it('verifies the form bytes, runs the rules on the payload field and stores its JSON', async () => {
    const event = { action: 'opened', issue: { number: 7, title: 'A & B = C?' } };
    const body = formOf(event);
    const res = await post('github', FORM, body, await githubHeaders(body));
    expect([res.status, res.body.duplicate]).toEqual([202, false]);
    const delivery = await waitFor(async () => {
      const d = (await adminApi(rt)('get', `/gateway/deliveries/${res.body.id}`).expect(200)).body.delivery;
      return d.rules[0]?.actions[0]?.status === 'succeeded' && d;
    });
    expect(delivery.rules[0].actions[0].spec.message).toBe('issue 7');
    expect(JSON.stringify(delivery)).toContain('A & B = C?');
  });

  it('refuses a form whose bytes were changed after signing, and one without a payload field', async () => {
    const body = formOf({ action: 'opened', issue: { number: 1 } });
    const tampered = await post('github', FORM, body.replace('1', '2'), await githubHeaders(body));
    expect([tampered.status, tampered.body.code]).toEqual([401, 'invalid_signature']);
    const noPayload = 'event=issues';
    const empty = await post('github', FORM, noPayload, await githubHeaders(noPayload));
    expect([empty.status, empty.body.success, empty.body.code]).toEqual([400, false, 'invalid_json']);
    expect(empty.body.message).toContain('payload');
  });

  it('names a missing X-GitHub-Delivery or X-GitHub-Event as missing', async () => {
    const body = JSON.stringify({ action: 'opened', issue: { number: 2 } });
    const { 'X-GitHub-Delivery': _id, ...noId } = await githubHeaders(body);
    const missingId = await post('github', 'application/json', body, noId);
    expect([missingId.status, missingId.body.code, missingId.body.message]).toEqual([400, 'validation_failed', 'X-GitHub-Delivery is missing']);
    const { 'X-GitHub-Event': _event, ...noEvent } = await githubHeaders(body);
    const missingEvent = await post('github', 'application/json', body, noEvent);
    expect([missingEvent.status, missingEvent.body.message]).toEqual([400, 'X-GitHub-Event is missing']);
  });

  it('answers 415 naming the content types each source takes', async () => {
    const body = formOf({ event: 'x' });
    const relay = await post('relay', FORM, body, { 'X-Service-Signature': hmacHeader(body, 'relay-secret') });
    expect([relay.status, relay.body.success, relay.body.code]).toEqual([415, false, 'unsupported_media_type']);
    expect(relay.body.message).toBe(`Content-Type must be application/json, not ${FORM}`);
    const text = await post('github', 'text/plain', body, await githubHeaders(body));
    expect([text.status, text.body.message]).toEqual([415, `Content-Type must be application/json or ${FORM}, not text/plain`]);
  });
});
