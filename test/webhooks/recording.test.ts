// How first attempts are recorded (fanout.ts, dispatcher.ts, attempts.ts, sweep.job.ts): the claim
// is written with the delivery row, results are rows of their own, written in batches. A success
// leaves the delivery row as created (fresh) and readers take its state from the result; any other
// outcome is settled onto the row after, and until then readers take it from the result too. Each
// fan-out batch's first attempts have a record until they are all recorded; the sweep reads those.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { insertResults, readAttempt } from '../../src/webhooks/attempts.ts';
import { performSweep } from '../../src/webhooks/sweep.job.ts';
import { getDelivery } from '../../src/webhooks/deliveries.ts';
import { laneOf } from '../../src/webhooks/lanes.ts';
import { attemptKey, AttemptModel, AttemptResultModel, DeliveryModel, UnfinishedFirstAttemptsModel, type Delivery } from '../../src/webhooks/model.ts';
import { trusted } from '../../src/db/connection.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';
import { createLogger } from '../../src/observability/logger.ts';

describe('recording first attempts', () => {
  const logLines: Array<{ msg: string; deliveries?: number }> = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const { rt, module } = useWebhooksRuntime({ retryDelaysMs: [10, 10, 10, 10] }, { logger: createLogger('info', logStream) });
  let sink: Sink;
  let tenant: Tenant;
  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
  });
  afterAll(() => sink?.close());

  const api = () => adminApi(rt);
  async function hook(path: string): Promise<string> {
    const res = await api()('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}${path}` });
    await api()('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true });
    return res.body.webhook.id as string;
  }
  const emit = () => rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started' } });
  const dispatcher = () => module.state().dispatcher;
  const at = (path: string) => sink.requests.filter((r) => r.path === path);

  it('claims every first attempt in its delivery row, records each result once, and leaves a successful delivery row as created', async () => {
    const hooks = await Promise.all(Array.from({ length: 12 }, (_, i) => hook(`/batch-${i}`)));
    await emit();
    await dispatcher().idle();
    for (const [i, webhookId] of hooks.entries()) {
      expect(at(`/batch-${i}`)).toHaveLength(1);
      const row = await DeliveryModel.findOne({ webhookId }).lean<Delivery>();
      expect(row).toMatchObject({ status: 'pending', attemptCount: 0, fresh: true, firstClaim: { startedAt: row!.createdAt } });
      // The claim stays in the row as written, and needs no attempt row; the outcome is its result row, and readers go by it.
      expect(await AttemptModel.countDocuments({ deliveryId: row!.id })).toBe(0);
      expect(await AttemptResultModel.findById(attemptKey(row!.id, 1)).lean()).toMatchObject({ status: 'succeeded', httpStatus: 200 });
      expect(await readAttempt(row!, 1)).toMatchObject({ status: 'succeeded', httpStatus: 200, number: 1, startedAt: row!.createdAt });
      expect(await getDelivery(tenant.botId, webhookId, row!.id)).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null, settled: 'pending' });
    }
    // Every first attempt recorded: the batch's record of unfinished ones is gone.
    await module.state().firstAttempts.drained();
    expect(await UnfinishedFirstAttemptsModel.countDocuments({})).toBe(0);
  });

  it('resends a fresh delivered row at once; a run of it closes the row without sending again', async () => {
    const webhookId = await hook('/fresh');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    const listed = await api()('get', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries`);
    expect(listed.body.deliveries[0]).toMatchObject({ id: row.id, status: 'delivered', attemptCount: 1 });

    await dispatcher().runNow(row.id);
    expect(at('/fresh')).toHaveLength(1);
    expect(await DeliveryModel.findById(row.id).lean()).toMatchObject({ status: 'delivered', fresh: false });
    const resend = await api()('post', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries/${row.id}/resend`);
    expect(resend.status).toBe(202);
    await waitFor(() => at('/fresh').length === 2);
  });

  it('shows an outcome not yet settled onto its row by its result, and refuses a resend until it is', async () => {
    const webhookId = await hook('/unsettled');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    // A row that is no longer fresh, as it is between a result insert and its settle.
    await DeliveryModel.updateOne({ _id: row.id }, { $set: { status: 'pending', fresh: false, attemptCount: 0, nextAttemptAt: row.createdAt, finishedAt: null } });

    const shown = await getDelivery(tenant.botId, webhookId, row.id);
    expect(shown).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null, settled: 'pending' });
    const resend = await api()('post', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries/${row.id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body).toMatchObject({ success: false });

    await dispatcher().runNow(row.id);
    expect(at('/unsettled')).toHaveLength(1);
    expect(await DeliveryModel.findById(row.id).lean()).toMatchObject({ status: 'delivered' });
    const again = await api()('post', `/bots/${tenant.botId}/webhooks/${webhookId}/deliveries/${row.id}/resend`);
    expect(again.status).toBe(202);
    await waitFor(() => at('/unsettled').length === 2);
  });

  it('sweeps the fresh rows of records past the grace period: hands over those without a successful first attempt, once, and reads no other', async () => {
    const webhookId = await hook('/swept');
    await emit();
    await dispatcher().idle();
    const delivered = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    const old = new Date(Date.now() - 120_000);
    // Copies as a process leaves them when it dies with the first attempt claimed and never ended.
    const copy = async () => {
      const id = crypto.randomUUID();
      const firstClaim = { startedAt: old, leaseUntil: new Date(old.getTime() + 30_000) };
      await DeliveryModel.collection.insertOne({ ...delivered, _id: id, id, eventId: `copy-${id}`, createdAt: old, nextAttemptAt: old, firstClaim } as never);
      return id;
    };
    const interrupted = await copy();
    // Without a record (its process finished it, as far as the record goes): never read.
    const unrecorded = await copy();
    // The delivered one as if it had been created and sent back then too.
    await DeliveryModel.updateOne({ _id: delivered.id }, { $set: { createdAt: old, nextAttemptAt: old } });
    await AttemptResultModel.updateOne({ _id: attemptKey(delivered.id, 1) }, { $set: { finishedAt: new Date(old.getTime() + 50) } });
    // The batch's record, as the dead process left it (with an event whose deliveries it never inserted), and a newer one.
    await UnfinishedFirstAttemptsModel.collection.insertMany([
      { _id: 'record-old', at: old, eventIds: [`copy-${interrupted}`, delivered.eventId, crypto.randomUUID()] },
      { _id: 'record-new', at: new Date(), eventIds: [`copy-${unrecorded}`] },
    ] as never[]);

    expect(await performSweep(rt.runtime.ctx, 30_000)).toBe(1);
    // The old record is gone: a second sweep finds nothing to hand over; the newer one waits for its grace period.
    expect((await UnfinishedFirstAttemptsModel.find({}).lean()).map((r) => r._id)).toEqual(['record-new']);
    expect(await performSweep(rt.runtime.ctx, 30_000)).toBe(0);
    expect(await DeliveryModel.findById(unrecorded).lean()).toMatchObject({ fresh: true });
    await UnfinishedFirstAttemptsModel.deleteOne({ _id: 'record-new' });
    await waitFor(async () => (await getDelivery(tenant.botId, webhookId, interrupted)).status === 'delivered');
    expect((await getDelivery(tenant.botId, webhookId, interrupted)).attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 'interrupted'],
      [2, 'succeeded'],
    ]);
    expect(sink.requests.filter((r) => r.headers['x-service-delivery-id'] === interrupted)).toHaveLength(1);
    // The delivered one was left alone: sent once, its row still as created.
    expect(sink.requests.filter((r) => r.headers['x-service-delivery-id'] === delivered.id)).toHaveLength(1);
    expect(await DeliveryModel.findById(delivered.id).lean()).toMatchObject({ fresh: true, status: 'pending' });
  });

  it('hands over overdue settled rows, and never a fresh row by its attempt time', async () => {
    const webhookId = await hook('/settled');
    await emit();
    await dispatcher().idle();
    const delivered = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    const old = new Date(Date.now() - 120_000);
    // Settled rows whose retry was due long ago and never ran (the process died before scheduling it).
    const stranded = async () => {
      const id = crypto.randomUUID();
      await DeliveryModel.collection.insertOne({ ...delivered, _id: id, id, eventId: `stranded-${id}`, nextAttemptAt: old, firstClaim: null, fresh: false } as never);
      return id;
    };
    const ids = [await stranded(), await stranded()];
    // The delivered row keeps its first attempt's time; made old, it is still fresh (its result
    // says delivered), and its creation is within the grace period, so nothing hands it over.
    await DeliveryModel.updateOne({ _id: delivered.id }, { $set: { nextAttemptAt: old } });

    expect(await performSweep(rt.runtime.ctx, 30_000)).toBe(2);
    await waitFor(async () => (await Promise.all(ids.map((id) => getDelivery(tenant.botId, webhookId, id)))).every((d) => d.status === 'delivered'));
    expect(await DeliveryModel.findById(delivered.id).lean()).toMatchObject({ fresh: true, status: 'pending' });
    expect(sink.requests.filter((r) => r.headers['x-service-delivery-id'] === delivered.id)).toHaveLength(1);
  });

  it('leaves a first attempt that waited past its claim to the next attempt, which runs once the claim ran out', async () => {
    const webhookId = await hook('/waited');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    // A new delivery that waited for a slot until less than a lease (15 s) of its claim was left.
    // Three of them, as a backlog makes them. 5 s left: the copies after the first wait for a
    // hook slot of their own (a database round trip), and all of it must happen within the claim.
    const now = Date.now();
    const firstClaim = { startedAt: new Date(now - 25_000), leaseUntil: new Date(now + 5_000) };
    const copies = [0, 1, 2].map(() => {
      const id = crypto.randomUUID();
      return { ...row, _id: id, id, eventId: `copy-${id}`, createdAt: firstClaim.startedAt, nextAttemptAt: firstClaim.startedAt, firstClaim };
    });
    const copyId = copies[0]!.id;
    await DeliveryModel.collection.insertMany(copies as never[]);
    const warnedBefore = logLines.filter((l) => l.msg.includes('waited past')).length;
    dispatcher().dispatch(copies.map((copy) => ({ delivery: copy as Delivery, secret: 'whsec_unused', lane: laneOf(null) })));
    await dispatcher().idle();
    const sent = () => sink.requests.filter((r) => r.headers['x-service-delivery-id'] === copyId);
    expect(sent()).toHaveLength(0);
    // One warning for the three, not a line per delivery.
    const warnings = logLines.filter((l) => l.msg.includes('waited past'));
    expect(warnedBefore).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.deliveries).toBe(1);
    // While the claim lasts, nobody else sends attempt 1 either.
    await dispatcher().runNow(copyId);
    expect(sent()).toHaveLength(0);
    // Its retry job, due when the claim runs out, records attempt 1 interrupted and sends attempt 2.
    const done = await waitFor(async () => ((d) => d.status === 'delivered' && d)(await getDelivery(tenant.botId, webhookId, copyId)));
    expect(done.attempts.map((a) => [a.number, a.status])).toEqual([
      [1, 'interrupted'],
      [2, 'succeeded'],
    ]);
    expect(sent()).toHaveLength(1);
    for (const copy of copies.slice(1)) await waitFor(async () => (await getDelivery(tenant.botId, webhookId, copy.id)).status === 'delivered');
  });

  it('deletes the whole delivery log of a deleted hook, attempt results included', async () => {
    const webhookId = await hook('/deleted');
    await emit();
    await dispatcher().idle();
    const row = (await DeliveryModel.findOne({ webhookId }).lean<Delivery>())!;
    expect(await AttemptResultModel.countDocuments({ deliveryId: row.id })).toBe(1);
    expect((await api()('delete', `/bots/${tenant.botId}/webhooks/${webhookId}`)).status).toBe(200);
    expect(await DeliveryModel.countDocuments({ webhookId })).toBe(0);
    expect(await AttemptModel.countDocuments({ deliveryId: row.id })).toBe(0);
    expect(await AttemptResultModel.countDocuments({ deliveryId: row.id })).toBe(0);
  });

  it('deletes a log longer than one page of the deletion (1,000 deliveries)', async () => {
    const webhookId = await hook('/deleted-long');
    const ids = Array.from({ length: 1_100 }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    // Raw rows: only the keys the deletion reads.
    await DeliveryModel.collection.insertMany(ids.map((id) => ({ _id: id, id, webhookId })) as never[]);
    await AttemptResultModel.collection.insertMany(ids.map((id) => ({ _id: attemptKey(id, 1), deliveryId: id })) as never[]);
    expect((await api()('delete', `/bots/${tenant.botId}/webhooks/${webhookId}`)).status).toBe(200);
    expect(await DeliveryModel.countDocuments({ webhookId })).toBe(0);
    expect(await AttemptResultModel.countDocuments({ deliveryId: trusted({ $in: [ids[0]!, ids[999]!, ids[1_000]!, ids[1_099]!] }) })).toBe(0);
  });

  it('keeps the first outcome recorded for an attempt', async () => {
    const key = attemptKey('00000000-0000-7000-8000-000000000001', 1);
    const base = { _id: key, deliveryId: '00000000-0000-7000-8000-000000000001', webhookId: '00000000-0000-7000-8000-0000000000ff', number: 1, finishedAt: new Date(), httpStatus: null, durationMs: null, responseBody: null, responseTruncated: false, retryAt: null };
    const first = await insertResults([{ ...base, status: 'interrupted', error: { code: 'interrupted', message: 'gone' } }]);
    const late = await insertResults([{ ...base, status: 'succeeded', httpStatus: 200, error: null }]);
    expect([...first]).toEqual([key]);
    expect(late.size).toBe(0);
    expect(await AttemptResultModel.findById(key).lean()).toMatchObject({ status: 'interrupted' });
  });
});
