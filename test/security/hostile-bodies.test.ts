// Hostile bodies (issue 7): nesting deep enough to exhaust a recursive walker is refused at the
// gateway intake before anything is stored or evaluated, prototype keys in gateway and public API
// bodies are refused (400), and those in JSONata rule expressions never reach Object.prototype.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi } from '../helpers/factories.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { hmacHeader, postDelivery } from '../gateway/support/signing.ts';

const SECRET = 'hostile-source-secret-0123';
const logAction = (message: string) => ({ type: 'log', message });
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] } } },
  {
    // Each rule tries one way of writing through __proto__ / constructor.prototype from JSONata.
    'a-transform-proto.json': { name: 'transform-proto', actions: [logAction("$string(payload ~> | __proto__ | {'polluted': 'transform'} |)")] },
    'b-transform-constructor.json': { name: 'transform-constructor', actions: [logAction("$string($ ~> | payload.constructor.prototype | {'polluted': 'constructor'} |)")] },
    'c-object-proto.json': { name: 'object-proto', when: "$merge([{}, {'__proto__': {'polluted': 'merge'}}]) != null", actions: [logAction("$string({'__proto__': {'polluted': 'object'}}.__proto__)")] },
    'd-lookup-proto.json': { name: 'lookup-proto', when: "$lookup(payload, '__proto__') = null or true", actions: [logAction("$string($spread({'__proto__': {'polluted': 'spread'}}))")] },
  },
);

const isPolluted = () => ({}) as Record<string, unknown>;
const expectPrototypeClean = () => {
  expect(isPolluted().polluted).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
};

describe('hostile request bodies', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const admin = () => adminApi(rt);
  const storedCount = async () => (await admin()('get', '/gateway/deliveries?limit=1').expect(200)).body.pagination.total as number;
  const sendRaw = (raw: string) => postDelivery(rt, 'relay', raw, { 'X-Service-Signature': hmacHeader(raw, SECRET) });

  afterEach(() => {
    // Clean up if a test did pollute, so one failure does not cascade into the others.
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it('refuses deeply nested JSON at the gateway with success false and stores nothing', async () => {
    const before = await storedCount();
    for (const depth of [100, 10_000, 200_000]) {
      for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
        const raw = `{"deliveryId":"${randomUUID()}","event":"x","d":${open.repeat(depth)}1${close.repeat(depth)}}`;
        const res = await sendRaw(raw);
        expect([400, 413], `depth ${depth} ${open}`).toContain(res.status);
        expect(res.body.success).toBe(false);
        if (depth === 100) expect(res.body.code).toBe('json_too_deep');
      }
    }
    expect(await storedCount()).toBe(before);
  });

  it('refuses a __proto__ key anywhere in a gateway body and leaves Object.prototype alone', async () => {
    const before = await storedCount();
    for (const payload of [
      `{"deliveryId":"${randomUUID()}","__proto__":{"polluted":true}}`,
      `{"deliveryId":"${randomUUID()}","a":{"b":[{"__proto__":{"polluted":true}}]}}`,
    ]) {
      const res = await sendRaw(payload);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_json' });
    }
    expect(await storedCount()).toBe(before);
    expectPrototypeClean();
  });

  it('refuses constructor.prototype bodies, and runs __proto__ and constructor.prototype expressions without polluting Object.prototype', async () => {
    // The gateway refuses a body with the key (issue 35, G2), as the public API does...
    const before = await storedCount();
    const hostile = await sendRaw(`{"deliveryId":"${randomUUID()}","event":"x","n":{"constructor":{"prototype":{"polluted":true}}}}`);
    expect([hostile.status, hostile.body.code]).toEqual([400, 'invalid_json']);
    expect(await storedCount()).toBe(before);
    // ...and expressions that write through those paths still reach no prototype.
    const raw = `{"deliveryId":"${randomUUID()}","event":"x","constructor":{"name":"form field"},"n":{"prototype":1}}`;
    const res = await sendRaw(raw);
    expect(res.status).toBe(202);
    type RuleView = { rule: string; result: string; actions: Array<{ status: string }> };
    const rules = await waitFor(async () => {
      const found: RuleView[] = (await admin()('get', `/gateway/deliveries/${res.body.id}`).expect(200)).body.delivery.rules;
      const settled = found.length === 4 && found.every((r) => r.actions.length === 1 && ['succeeded', 'failed'].includes(r.actions[0]!.status));
      return settled ? found : null;
    });
    // Every rule matched and every action ran: the expressions really were evaluated.
    expect(rules.map((r) => [r.rule, r.result, r.actions[0]!.status]).sort()).toEqual([
      ['lookup-proto', 'matched', 'succeeded'],
      ['object-proto', 'matched', 'succeeded'],
      ['transform-constructor', 'matched', 'succeeded'],
      ['transform-proto', 'matched', 'succeeded'],
    ]);
    expectPrototypeClean();
  });

  it('answers prototype keys in public API bodies without a 500 and leaves Object.prototype alone', async () => {
    const tenant = await createTenant();
    const api = publicApi(rt, tenant);
    const bodies = [
      '{"userData":{"__proto__":{"polluted":true}}}',
      '{"userData":{"constructor":{"prototype":{"polluted":true}}}}',
      '{"userData":{"a":{"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true}}}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const body of bodies) {
      const res = await api('post', '/conversation').set('Content-Type', 'application/json').send(body);
      expect([200, 400], body).toContain(res.status);
      expect(typeof res.body.success).toBe('boolean');
      expectPrototypeClean();
    }
    const ds = (await api('post', '/data-sources').expect(200)).body.dataSource.id;
    const rows = `{"dataSourceId":"${ds}","dataSourceRows":[{"name":"a","content":"b","constructor":{"prototype":{"polluted":true}}}],"__proto__":{"polluted":true}}`;
    const res = await api('post', '/data-sources/row').set('Content-Type', 'application/json').send(rows);
    expect([200, 400]).toContain(res.status);
    expectPrototypeClean();
  });
});
