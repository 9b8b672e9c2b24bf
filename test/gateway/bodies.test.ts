// A delivery's headers and raw bytes are stored apart from it (the list never reads them): written
// before the delivery, read by the rules and the get, removed with it or when a duplicate, and
// never planned as empty when missing.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { eventBody, hmacHeader, postDelivery } from './support/signing.ts';
import { timeOrderedIdBound } from '../../src/clock.ts';
import { GatewayDeliveryBodyModel, GatewayDeliveryModel, RuleOutcomeModel } from '../../src/gateway/model.ts';
import { performProcess } from '../../src/gateway/process.job.ts';
import { pruneGateway } from '../../src/gateway/retention.ts';

const SECRET = 'bodies-secret-0123456789';
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] } } },
  { 'echo.json': { name: 'echo', actions: [{ type: 'log', message: "'n=' & $string(payload.n) & ' probe=' & headers.'x-probe'" }] } },
);
const DAY = 24 * 3600_000;

/** A time-ordered id of a past moment, as the intake made it then. */
const idAt = (ms: number) => `${timeOrderedIdBound(ms)}-7000-8${randomBytes(2).toString('hex').slice(1)}-${randomBytes(6).toString('hex')}`;

/** A delivery row as the intake stores it (its body record apart), received a day ago. */
function storedRow(id: string, processed: boolean) {
  const at = new Date(Date.now() - DAY);
  return {
    _id: id,
    id,
    source: 'relay',
    deliveryId: randomUUID(),
    event: 'stored.row',
    test: false,
    signed: { deliveryId: true, event: true, test: true },
    receivedAt: at,
    run: 0,
    processedRun: processed ? 0 : -1,
    processedAt: processed ? at : null,
    sweptAt: at,
  };
}

describe('gateway delivery bodies', () => {
  const { gateway, modules } = modulesWithGateway();
  const rt = useTestRuntime({ env: files.env, modules });
  const admin = () => adminApi(rt);
  const view = () => ({ rules: gateway.state().rules.rules, vars: gateway.state().vars });
  const send = (n: number, deliveryId = randomUUID()) => {
    const { body } = eventBody({ event: 'new.layout', n }, deliveryId);
    return postDelivery(rt, 'relay', body, { 'X-Service-Signature': hmacHeader(body, SECRET), 'X-Probe': `new-${n}` });
  };
  const echoed = async (id: string, run = 0) =>
    waitFor(async () => {
      const d = (await admin()('get', `/gateway/deliveries/${id}`)).body.delivery;
      return d.processedRun >= run && d.rules.find((r: { run: number }) => r.run === run)?.actions[0]?.result.message;
    });

  it('stores the headers and raw bytes apart from the delivery, and the rules and the get read them there', async () => {
    const res = await send(7);
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    const row = await GatewayDeliveryModel.collection.findOne({ _id: id as never });
    expect(row).not.toHaveProperty('headers');
    expect(row).not.toHaveProperty('rawBody');
    // The headers as a sub-document of name → value, the bytes as stored binary.
    const body = await GatewayDeliveryBodyModel.collection.findOne({ _id: id as never });
    expect(body?.headers).toMatchObject({ 'x-probe': 'new-7', 'content-type': 'application/json' });

    expect(await echoed(id)).toBe('n=7 probe=new-7');
    const one = (await admin()('get', `/gateway/deliveries/${id}`).expect(200)).body.delivery;
    expect(one.headers['x-probe']).toBe('new-7');
    // The signed facts as a sub-document, shown as stored.
    expect(row?.signed).toEqual(one.signed);
    expect(Object.keys(row!.signed)).toEqual(['deliveryId', 'event', 'test']);
    expect(JSON.parse(one.body)).toMatchObject({ n: 7 });
  });

  it('keeps one body for a delivery that arrives twice, the duplicate leaving none behind', async () => {
    const deliveryId = randomUUID();
    const first = await send(1, deliveryId);
    const bodies = await GatewayDeliveryBodyModel.countDocuments({});
    const again = await Promise.all([send(1, deliveryId), send(1, deliveryId)]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(await GatewayDeliveryBodyModel.countDocuments({})).toBe(bodies);
    expect(await GatewayDeliveryBodyModel.findById(first.body.id).lean()).not.toBeNull();
  });

  it('leaves a delivery whose body is not stored unprocessed instead of running the rules on nothing', async () => {
    const id = idAt(Date.now());
    const row = storedRow(id, false);
    await GatewayDeliveryModel.collection.insertOne({ ...row, event: 'no.body' } as never);
    await performProcess(rt.runtime.ctx, view, { deliveries: [{ id, run: 0 }] });
    expect(await GatewayDeliveryModel.findById(id, { processedAt: 1 }).lean()).toMatchObject({ processedAt: null });
    expect(await RuleOutcomeModel.countDocuments({ delivery: id })).toBe(0);
    const shown = (await admin()('get', `/gateway/deliveries/${id}`).expect(200)).body.delivery;
    expect(shown).toMatchObject({ headers: null, body: null, processedAt: null });
  });

  it('removes a body with its delivery, and an old body a crash left without one, but not a body of the moment', async () => {
    const old = Date.now() - 10 * DAY;
    const expired = idAt(old);
    const row = storedRow(expired, true);
    await GatewayDeliveryModel.collection.insertOne({ ...row, receivedAt: new Date(old), processedAt: new Date(old) } as never);
    const orphan = idAt(old + 1);
    const arriving = idAt(Date.now());
    await GatewayDeliveryBodyModel.collection.insertMany([expired, orphan, arriving].map((_id) => ({ _id, headers: {}, rawBody: Buffer.from('{}') })) as never[]);

    const counts = await pruneGateway(new Date(Date.now() - 5 * DAY));
    expect(counts).toMatchObject({ gatewayDeliveries: 1, gatewayDeliveryBodies: 2 });
    expect(await GatewayDeliveryBodyModel.findById(expired).lean()).toBeNull();
    expect(await GatewayDeliveryBodyModel.findById(orphan).lean()).toBeNull();
    expect(await GatewayDeliveryBodyModel.findById(arriving).lean()).not.toBeNull();
  });
});
