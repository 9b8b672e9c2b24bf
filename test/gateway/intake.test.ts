// Intake: signatures over the exact raw bytes (vectors), rotation, the legacy header opt-in, and
// every refusal answered with success: false and the right status, never a 500, never stored.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { timeOrderedId } from '../../src/clock.ts';
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { eventBody, hmacHeader, postDelivery, sendSigned } from './support/signing.ts';
import { GatewayDeliveryModel } from '../../src/gateway/model.ts';

const OLD = 'old-secret-0123456789';
const NEW = 'new-secret-9876543210';

const files = gatewayFiles(
  {
    sources: {
      relay: { secrets: [OLD, 'env:GATEWAY_SECRET_RELAY'] },
      legacy: { secrets: [OLD], allowLegacySecretHeader: true },
      small: { secrets: [OLD], maxBodyBytes: 300 },
    },
  },
  { 'log.json': { name: 'log-all', actions: [{ type: 'log', message: "'seen ' & event & (test ? ' (test)' : '')" }] } },
  { GATEWAY_SECRET_RELAY: NEW },
);

describe('gateway intake', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const admin = () => adminApi(rt);
  const started = { event: 'conversation.started', timestamp: '2025-05-01T10:00:00.000Z', conversation: { id: randomUUID() } };
  const storedCount = async () => (await admin()('get', '/gateway/deliveries?limit=1')).body.pagination.total as number;

  it('accepts the exact raw bytes it was signed over, and stores those bytes', async () => {
    const deliveryId = randomUUID();
    // Spacing, key order and a \u escape that JSON.stringify would rewrite: only the raw bytes verify.
    const raw = Buffer.from(`{ "event":"conversation.started",\n  "name": "Caf\\u00e9",  "deliveryId": "${deliveryId}" }`);
    const res = await postDelivery(rt, 'relay', raw, { 'X-Service-Signature': hmacHeader(raw, OLD), 'X-Service-Event': 'conversation.started' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, duplicate: false, deliveryId });
    const stored = await admin()('get', `/gateway/deliveries/${res.body.id}`);
    expect(stored.body.delivery.body).toBe(raw.toString('utf8'));

    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
    const again = await postDelivery(rt, 'relay', raw, { 'X-Service-Signature': hmacHeader(reserialised, OLD) });
    expect(again.status).toBe(401);
  });

  it('refuses signature vectors that are almost right with 401 and stores none of them', async () => {
    const before = await storedCount();
    const { body } = eventBody(started);
    const good = hmacHeader(body, OLD);
    const hex = good.slice('sha256='.length);
    const flipped = `sha256=${(parseInt(hex[0]!, 16) ^ 1).toString(16)}${hex.slice(1)}`;
    const flippedBody = Buffer.from(body);
    flippedBody[10] = flippedBody[10]! ^ 0x01;
    const vectors: Array<[string, Buffer, string | undefined]> = [
      ['one flipped bit in the signature', body, flipped],
      ['one flipped bit in the body', flippedBody, good],
      ['too short', body, good.slice(0, -2)],
      ['too long', body, `${good}00`],
      ['non-hex of the right length', body, `sha256=${'z'.repeat(64)}`],
      ['missing prefix', body, hex],
      ['another algorithm prefix', body, `sha1=${hex}`],
      ['wrong secret', body, hmacHeader(body, 'not-the-secret')],
      ['empty', body, ''],
      ['missing', body, undefined],
    ];
    for (const [name, bytes, signature] of vectors) {
      const res = await postDelivery(rt, 'relay', bytes, signature === undefined ? {} : { 'X-Service-Signature': signature });
      expect(res.status, name).toBe(401);
      expect(res.body, name).toMatchObject({ success: false, code: 'invalid_signature' });
    }
    expect(await storedCount()).toBe(before);
  });

  it('accepts both the old and the new secret during a rotation', async () => {
    for (const secret of [OLD, NEW]) {
      const res = await sendSigned(rt, 'relay', secret, started);
      expect(res.status).toBe(202);
    }
  });

  it('never answers 500 to arbitrary signature headers', async () => {
    const { body } = eventBody(started);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }).filter((s) => /^[\x21-\x7e]*$/.test(s)), async (signature) => {
        const res = await postDelivery(rt, 'relay', body, { 'X-Service-Signature': signature });
        expect(res.status).toBe(401);
      }),
      { numRuns: 40 },
    );
  });

  it('accepts X-Secret-Key only on a source that opts in', async () => {
    const { body } = eventBody(started);
    expect((await postDelivery(rt, 'relay', body, { 'X-Secret-Key': OLD })).status).toBe(401);
    expect((await postDelivery(rt, 'legacy', body, { 'X-Secret-Key': 'wrong' })).status).toBe(401);
    const ok = await postDelivery(rt, 'legacy', body, { 'X-Secret-Key': OLD });
    expect(ok.status).toBe(202);
    const stored = await admin()('get', `/gateway/deliveries/${ok.body.id}`);
    expect(stored.body.delivery.headers['x-secret-key']).toBeUndefined();
  });

  it('refuses what it cannot take with success: false and the right status', async () => {
    const sign = (raw: string, extra: Record<string, string> = {}) => ({ 'X-Service-Signature': hmacHeader(raw, OLD), ...extra });
    const unknown = await sendSigned(rt, 'nope', OLD, started);
    expect(unknown.status).toBe(404);

    const { body } = eventBody(started);
    const plain = await rt.http().post('/gateway/relay').set('Content-Type', 'text/plain').set('X-Service-Signature', hmacHeader(body, OLD)).send(body.toString());
    expect(plain.status).toBe(415);

    const big = JSON.stringify({ ...started, deliveryId: randomUUID(), pad: 'x'.repeat(400) });
    expect((await postDelivery(rt, 'small', big, sign(big))).status).toBe(413);

    // A body with no id at all is taken under its digest (test/gateway/signed-facts.test.ts).
    const cases: Array<[string, string, Record<string, string>, string]> = [
      ['broken JSON', '{"event":', {}, 'invalid_json'],
      ['an array', '[1,2]', {}, 'invalid_json'],
      ['an operator as delivery id', JSON.stringify({ ...started, deliveryId: { $ne: null } }), {}, 'validation_failed'],
      ['a non-UUID header id', JSON.stringify(started), { 'X-Service-Delivery-Id': 'abc' }, 'validation_failed'],
      ['header and body ids that differ', JSON.stringify({ ...started, deliveryId: randomUUID() }), { 'X-Service-Delivery-Id': randomUUID() }, 'validation_failed'],
      ['a prototype key', `{"deliveryId":"${randomUUID()}","__proto__":{"x":1}}`, {}, 'invalid_json'],
    ];
    for (const [name, raw, extra, code] of cases) {
      const res = await postDelivery(rt, 'relay', raw, sign(raw, extra));
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ success: false, code });
    }
  });

  it('records a test send and lets rules see the flag', async () => {
    const res = await sendSigned(rt, 'relay', OLD, started, { event: 'conversation.started', test: true });
    expect(res.status).toBe(202);
    const delivery = await waitFor(async () => {
      const r = await admin()('get', `/gateway/deliveries/${res.body.id}`);
      return r.body.delivery.rules[0]?.actions[0]?.status === 'succeeded' && r.body.delivery;
    });
    expect(delivery.test).toBe(true);
    expect(delivery.rules[0].actions[0].spec.message).toBe('seen conversation.started (test)');
  });

  it('identifies a sync event without an event header from its payload shape', async () => {
    const res = await sendSigned(rt, 'relay', OLD, { success: false, reason: 'boom', bot: 'b', dataSource: 'd' });
    const stored = await admin()('get', `/gateway/deliveries/${res.body.id}`);
    expect(stored.body.delivery.event).toBe('sync.failure');
  });
  it('stores deliveries under time-ordered ids, so the admin list is oldest first page by page', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) {
      // The event in the signed body: an unsigned X-Service-Event does not route (issue 21, F4).
      const res = await sendSigned(rt, 'relay', OLD, { event: 'order.check', n: i });
      expect(res.status).toBe(202);
      sent.push(res.body.id);
    }
    for (const id of sent) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const listed: string[] = [];
    let cursor = '';
    for (let page = 0; page < 3; page++) {
      const res = await admin()('get', `/gateway/deliveries?event=order.check&limit=2${cursor && `&cursor=${cursor}`}`);
      listed.push(...(res.body.deliveries as Array<{ id: string }>).map((d) => d.id));
      cursor = res.body.pagination.last;
    }
    expect(listed).toEqual(sent);
  });

  it('pages to the end by cursor, and refuses a cursor of no delivery', async () => {
    const stored = Array.from({ length: 3 }, (_, n) => {
      const id = timeOrderedId();
      return { _id: id, id, source: 'relay', deliveryId: randomUUID(), event: 'cursor.check', test: false, signed: { deliveryId: false, event: false, test: false }, receivedAt: new Date(), run: 0, processedRun: 0, processedAt: new Date(), sweptAt: new Date(), n };
    });
    await GatewayDeliveryModel.collection.insertMany(stored as never[]);
    const page = (cursor?: string) => admin()('get', `/gateway/deliveries?event=cursor.check&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    const listed: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 3; n++) {
      const res = await page(cursor);
      expect(res.status).toBe(200);
      listed.push(...(res.body.deliveries as Array<{ id: string }>).map((d) => d.id));
      cursor = res.body.pagination.last;
    }
    expect(listed).toEqual(stored.map((d) => d.id).sort());
    expect((await page(cursor)).body).toMatchObject({ deliveries: [], pagination: { total: 3, last: null } });
    expect((await page(randomUUID())).body).toMatchObject({ success: false, code: 'invalid_cursor' });
  });
});
