// Issue 21, F4: the spec signs the body only, so a delivery's id, event and test flag are trusted
// only from signed bytes. A captured body cannot come in again under fresh header ids, an unsigned
// X-Service-Event does not route, and Relay's own deliveries sign those facts (X-Relay-Signature),
// custom payloads included, so the gateway keeps the sender's delivery id.
import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useListeningApp, useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { hmacHeader, postDelivery } from './support/signing.ts';
import { writeFileSync } from 'node:fs';
import { timeOrderedId } from '../../src/clock.ts';
import { GatewayDeliveryBodyModel, GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { performProcess } from '../../src/gateway/process.job.ts';

const SECRET = 'signed-facts-secret-0123';
// `untimed`: a source that never receives X-Relay-Signature (once `relay` has, it must keep sending it).
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] }, untimed: { secrets: [SECRET] } } }, {
  'log.json': { name: 'log-signed', actions: [{ type: 'log', message: "'signed test: ' & $string(signed.test)" }] },
});

/** X-Relay-Signature written here from its documented definition (docs/GATEWAY.md), not with our helper. */
function relaySignature(secret: string, t: number, id: string, event: string, test: boolean, body: string): string {
  const mac = createHmac('sha256', secret).update(`${t}.${id}.${event}.${test}.`).update(body).digest('hex');
  return `t=${t},v1=${mac}`;
}

describe('signed and unsigned delivery facts', () => {
  const { gateway, modules } = modulesWithGateway();
  const rt = useTestRuntime({ env: files.env, modules });
  const app = useListeningApp(rt);
  const admin = () => adminApi(rt);
  const stored = async (id: string) => (await admin()('get', `/gateway/deliveries/${id}`).expect(200)).body.delivery;

  it('accepts a captured body without a body deliveryId once, whatever fresh header ids come with it', async () => {
    const raw = JSON.stringify({ event: 'conversation.started', conversation: { id: randomUUID() } });
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await postDelivery(rt, 'relay', raw, { 'X-Service-Signature': hmacHeader(raw, SECRET), 'X-Service-Delivery-Id': randomUUID() }));
    }
    expect(answers.map((a) => a.status)).toEqual([202, 200, 200]);
    expect(answers.map((a) => a.body.duplicate)).toEqual([false, true, true]);
    // The id is the body's digest, the same each time.
    expect(new Set(answers.map((a) => a.body.deliveryId)).size).toBe(1);
    const first = await stored(answers[0]!.body.id);
    expect(first.signed).toEqual({ deliveryId: true, event: true, test: false });
  });

  it('routes by the signed body, not by an unsigned X-Service-Event', async () => {
    const raw = JSON.stringify({ event: 'conversation.started', deliveryId: randomUUID() });
    const res = await postDelivery(rt, 'relay', raw, { 'X-Service-Signature': hmacHeader(raw, SECRET), 'X-Service-Event': 'conversation.escalated' });
    expect(res.status).toBe(202);
    expect((await stored(res.body.id)).event).toBe('conversation.started');

    const custom = JSON.stringify({ hello: 'world', n: randomUUID() });
    const other = await postDelivery(rt, 'relay', custom, { 'X-Service-Signature': hmacHeader(custom, SECRET), 'X-Service-Event': 'sync.failure' });
    expect(other.status).toBe(202);
    const kept = await stored(other.body.id);
    expect(kept.event).toBe('unknown');
    expect(kept.headers['x-service-event']).toBe('sync.failure');
  });

  it('trusts header facts covered by X-Relay-Signature, and refuses them changed or stale', async () => {
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ custom: 'payload', n: randomUUID() });
    const id = randomUUID();
    const headers = (over: Record<string, string> = {}) => ({
      'X-Service-Signature': hmacHeader(body, SECRET),
      'X-Service-Delivery-Id': id,
      'X-Service-Event': 'conversation.claimed',
      'X-Service-Test': 'true',
      'X-Relay-Signature': relaySignature(SECRET, now, id, 'conversation.claimed', true, body),
      ...over,
    });

    const tamperings: Record<string, string>[] = [{ 'X-Service-Event': 'conversation.started' }, { 'X-Service-Test': 'false' }, { 'X-Service-Delivery-Id': randomUUID() }];
    for (const tampered of tamperings) {
      const res = await postDelivery(rt, 'relay', body, headers(tampered));
      expect(res.status, JSON.stringify(tampered)).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_signature' });
    }
    const stale = await postDelivery(rt, 'relay', body, headers({ 'X-Relay-Signature': relaySignature(SECRET, now - 3600, id, 'conversation.claimed', true, body) }));
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('signature_expired');

    const ok = await postDelivery(rt, 'relay', body, headers());
    expect(ok.status).toBe(202);
    expect(ok.body.deliveryId).toBe(id);
    expect(await stored(ok.body.id)).toMatchObject({ deliveryId: id, event: 'conversation.claimed', test: true, signed: { deliveryId: true, event: true, test: true } });
  });

  it("keeps the delivery id and event of Relay's own custom-payload deliveries, whose bodies carry neither", async () => {
    const tenant = await createTenant({ bot: 'Custom bot' });
    const created = await admin()('post', `/bots/${tenant.botId}/webhooks`, {
      type: 'conversation.started',
      url: `${app.baseUrl}/gateway/relay`,
      customPayload: { enabled: true, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"conversation":"{{conversation.id}}"}' },
    });
    expect(created.status).toBe(201);
    writeFileSync(files.configFile, JSON.stringify({ sources: { relay: { secrets: [SECRET, created.body.secret] }, untimed: { secrets: [SECRET] } } }));
    await admin()('post', '/gateway/reload').expect(200);

    const sends: Array<{ status: number; deliveryId: string }> = [];
    for (let i = 0; i < 2; i++) sends.push((await admin()('post', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/test`).expect(200)).body.test);
    expect(sends.map((s) => s.status)).toEqual([202, 202]);
    const received = await waitFor(async () => {
      const list = (await admin()('get', '/gateway/deliveries?event=conversation.started&limit=100').expect(200)).body.deliveries as Array<{ deliveryId: string; test: boolean; signed: unknown }>;
      const ours = list.filter((d) => sends.some((s) => s.deliveryId === d.deliveryId));
      return ours.length === 2 && ours;
    });
    for (const d of received) expect(d).toMatchObject({ test: true, signed: { deliveryId: true, event: true, test: true } });
  });

  it('stores the signed facts as a sub-document, which the list, the get and the rules read', async () => {
    const raw = JSON.stringify({ event: 'conversation.started', deliveryId: randomUUID() });
    const res = await postDelivery(rt, 'untimed', raw, { 'X-Service-Signature': hmacHeader(raw, SECRET) });
    const row = await GatewayDeliveryModel.collection.findOne({ _id: res.body.id });
    expect(row?.signed).toEqual({ deliveryId: true, event: true, test: false });

    // A row whose facts differ from what intake derives from a body, so the readers must take them from the row.
    const id = timeOrderedId();
    const signed = { deliveryId: true, event: false, test: true };
    await GatewayDeliveryBodyModel.collection.insertOne({ _id: id, headers: {}, rawBody: Buffer.from('{}') } as never);
    await GatewayDeliveryModel.collection.insertOne({ _id: id, id, source: 'relay', deliveryId: randomUUID(), event: 'stored.facts', test: true, signed, receivedAt: new Date(), run: 0, processedRun: -1, processedAt: null, sweptAt: new Date() } as never);
    expect((await stored(id)).signed).toEqual(signed);
    const listed = (await admin()('get', '/gateway/deliveries?event=stored.facts').expect(200)).body.deliveries;
    expect(listed.map((d: { signed: unknown }) => d.signed)).toEqual([signed]);
    await performProcess(rt.runtime.ctx, () => ({ rules: gateway.state().rules.rules, vars: gateway.state().vars }), { deliveries: [{ id, run: 0 }] });
    expect((await stored(id)).rules[0].actions[0].result.message).toBe('signed test: true');
  });
});
