// How the reference reads: operations grouped by domain, the gateway intake described as its
// senders need it (body, each scheme's headers, every answer), and integers typed as integers.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { TAG_RULES } from '../../src/openapi/tags.ts';

const P = '/api/public/channels/{channelId}/{version}';

describe('OpenAPI reference', () => {
  const rt = useTestRuntime({ worker: false });
  let doc: any;
  beforeAll(async () => {
    doc = (await rt.http().get('/openapi.json').expect(200)).body;
  });
  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method} ${path}`, op })));

  it('groups every operation under a domain tag the document declares', () => {
    const declared = doc.tags.map((t: { name: string }) => t.name);
    expect(declared).toEqual(TAG_RULES.map((r) => r.name));
    const byTag: Record<string, string[]> = {};
    for (const { key, op } of operations()) {
      expect(op.tags, key).toHaveLength(1);
      expect(declared, key).toContain(op.tags[0]);
      (byTag[op.tags[0]] ??= []).push(key);
    }
    expect(byTag.Chat?.sort()).toEqual([`post ${P}/conversation`, `post ${P}/conversations`, `post ${P}/message`, `post ${P}/messages`]);
    expect(byTag['Data sources']).toContain(`post ${P}/data-sources/sync`);
    expect(byTag['Sync hooks']).toEqual(expect.arrayContaining(['post /api/public/hooks/{hookId}/{secret}', 'post /api/admin/bots/{botId}/data-sources/{dataSourceId}/sync-hooks']));
    expect(byTag.Webhooks).toContain('get /api/admin/bots/{botId}/webhooks/{webhookId}/deliveries');
    expect(byTag.Agents).toContain('post /api/admin/conversations/{conversationId}/claim');
    expect(byTag['Admin: teams, bots and channels']).toEqual(expect.arrayContaining(['post /api/admin/bootstrap', 'get /api/admin/bots/{botId}', 'post /api/admin/channels/{channelId}/rotate']));
    expect(byTag.Gateway).toEqual(['post /gateway/{source}']);
    expect(byTag['Admin: gateway']).toContain('get /api/admin/gateway/deliveries');
    expect(byTag.Operations?.sort()).toEqual(['get /healthz', 'get /metrics', 'get /readyz']);
    expect(Object.keys(byTag).filter((tag) => /Root|^Public API$|^Admin API$|^Other$/.test(tag))).toEqual([]);
  });

  it('describes the gateway intake: its body, each scheme\'s headers and every answer, with real examples', () => {
    const intake = doc.paths['/gateway/{source}'].post;
    expect(intake.security).toEqual([]);
    expect(Object.keys(intake.responses).sort()).toEqual(['200', '202', '400', '401', '404', '413', '415', 'default']);
    const example = (status: string) => Object.values(intake.responses[status].content['application/json'].examples as Record<string, { value: any }>).map((e) => e.value);
    expect(example('202').every((v) => v.duplicate === false && typeof v.id === 'string')).toBe(true);
    expect(example('202')).toHaveLength(6);
    expect(example('200')).toEqual([expect.objectContaining({ success: true, duplicate: true })]);
    expect(example('401').map((v) => v.code).sort()).toEqual(['invalid_signature', 'signature_expired']);
    expect(example('404').map((v) => v.code)).toEqual(['not_found']);
    expect(example('413').map((v) => v.code)).toEqual(['payload_too_large']);
    expect(example('415').map((v) => v.code)).toEqual(['unsupported_media_type']);
    expect(example('400').map((v) => v.message)).toEqual(['X-GitHub-Delivery is missing']);

    const headers = intake.parameters.filter((p: { in: string }) => p.in === 'header');
    const schemes = new Set(headers.map((p: { description: string }) => /^\*\*([a-z-]+)\*\*/.exec(p.description)?.[1]));
    expect([...schemes].sort()).toEqual(['github', 'relay', 'standard-webhooks', 'stripe']);
    for (const name of ['X-Service-Signature', 'X-Relay-Signature', 'webhook-signature', 'X-Hub-Signature-256', 'Stripe-Signature']) {
      const header = headers.find((p: { name: string }) => p.name === name);
      expect(header, name).toMatchObject({ required: false, schema: { type: 'string' } });
      expect(header.example, `${name}: a recorded value`).toEqual(expect.any(String));
    }
    expect(intake.description).toContain('`hmac`');

    expect(intake.requestBody.required).toBe(true);
    const json = intake.requestBody.content['application/json'];
    expect(Object.values(json.examples).map((e: any) => e.summary)).toEqual(
      expect.arrayContaining(['relay: a new delivery', 'standard-webhooks: a new delivery', 'github: a new delivery', 'stripe: a new delivery', 'hmac: a new delivery']),
    );
    const form = intake.requestBody.content['application/x-www-form-urlencoded'];
    expect(form.schema.required).toEqual(['payload']);
    expect(JSON.parse((Object.values(form.examples)[0] as any).value.payload)).toMatchObject({ action: 'closed' });
  });

  it('types every limit, in a query or a body, as an integer, and no integer with made-up bounds', () => {
    const limits = operations().flatMap(({ op }) => [
      ...(op.parameters ?? []).filter((p: any) => p.name === 'limit').map((p: any) => p.schema),
      ...[op.requestBody?.content?.['application/json']?.schema?.properties?.limit].filter(Boolean),
    ]);
    expect(limits.length).toBeGreaterThan(5);
    for (const schema of limits) expect(schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(JSON.stringify(doc)).not.toContain(String(Number.MIN_SAFE_INTEGER));
  });
});
