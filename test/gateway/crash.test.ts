// A crash between storing a delivery and acting on it loses nothing: the stored delivery and its
// queued job outlive the process that accepted it, and another worker runs the actions once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import mongoose from 'mongoose';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createApp } from '../../src/app.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { getDelivery } from '../../src/gateway/service.ts';
import { performSweep } from '../../src/gateway/sweep.job.ts';
import { ActionClaimModel, ActionOutcomeModel } from '../../src/gateway/model.ts';
import { performAction, RetryableActionError } from '../../src/gateway/action.job.ts';
import { databaseUri, testConfig, uniqueDatabaseName, waitFor } from '../helpers/harness.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway, storeDelivery } from './support/runtime.ts';
import type { Clock } from '../../src/clock.ts';
import { startSink, type Sink } from './support/servers.ts';
import { eventBody, hmacHeader } from './support/signing.ts';

const SECRET = 'crash-secret-0123456789';

describe('gateway crash recovery', () => {
  let sink: Sink;
  let files: ReturnType<typeof gatewayFiles>;
  const uri = databaseUri(uniqueDatabaseName());
  const runtimes: Runtime[] = [];
  let gateway: ReturnType<typeof modulesWithGateway>['gateway'];
  const start = async (role: { api: boolean; worker: boolean }) => {
    const config = testConfig(files.env, uri);
    const withGateway = modulesWithGateway();
    gateway = withGateway.gateway;
    const rt = await createRuntime({ config, logger: createLogger('silent'), uri, role, ...withGateway });
    runtimes.push(rt);
    if (role.worker) await rt.startWorker();
    return rt;
  };

  beforeAll(async () => {
    sink = await startSink();
    files = gatewayFiles(
      { sources: { relay: { secrets: [SECRET] } }, vars: { sink: sink.url } },
      { 'notify.json': { name: 'notify', actions: [{ type: 'http', url: "vars.sink & '/hook/' & deliveryId", body: 'payload' }] } },
    );
  });
  afterAll(async () => {
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    for (const rt of runtimes.reverse()) await rt.shutdown().catch(() => undefined);
    await sink?.close();
  });

  it('runs the actions once on a second worker after the accepting process went away before acting', async () => {
    const api = await start({ api: true, worker: false });
    const { body, deliveryId } = eventBody({ event: 'conversation.started', conversation: { id: 'c-1' } });
    const res = await request(createApp(api.ctx, api.modules).callback())
      .post('/gateway/relay')
      .set('Content-Type', 'application/json')
      .set('X-Service-Signature', hmacHeader(body, SECRET))
      .send(body.toString('utf8'));
    expect(res.status).toBe(202);
    expect((await GatewayDeliveryModel.findOne({ id: res.body.id }).lean())?.processedAt).toBeNull();
    await api.shutdown();
    runtimes.pop();
    expect(sink.requests).toHaveLength(0);

    await start({ api: false, worker: true });
    const record = await waitFor(async () => {
      const r = await getDelivery(res.body.id);
      return r.actions[0]?.status === 'succeeded' && r;
    });
    expect(record.actions).toHaveLength(1);
    expect(record.actions[0]!.attempts).toBe(1);
    expect(sink.requests.map((r) => r.url)).toEqual([`/hook/${deliveryId}`]);
  });

  it('enqueues a delivery that was stored but never queued when the sweep runs', async () => {
    const worker = runtimes.at(-1)!;
    const { body, deliveryId } = eventBody({ event: 'conversation.started' });
    // What a crash right after the insert leaves behind: the document, and no job.
    await storeDelivery({ id: '11111111-1111-4111-8111-111111111111', deliveryId, event: 'conversation.started', body, receivedAt: new Date(Date.now() - 60_000) });
    expect(await performSweep(worker.ctx, 30_000)).toMatchObject({ deliveries: 1 });
    await waitFor(() => sink.requests.some((r) => r.url === `/hook/${deliveryId}`));
    // The process job records its run after enqueueing the actions, so the action may finish first.
    const record = await waitFor(async () => {
      const r = await getDelivery('11111111-1111-4111-8111-111111111111');
      return r.actions[0]?.status === 'succeeded' && r.delivery.processedAt !== null && r;
    });
    expect(record.delivery.processedRun).toBe(0);
    // A second sweep finds nothing left to do.
    expect(await performSweep(worker.ctx, 30_000)).toEqual({ deliveries: 0, actions: 0 });
  });

  /** A stored delivery with one planned `http` action to the sink, in the given state. */
  async function storeActionOutcome(deliveryRecordId: string, outcomeId: string, state: { status: 'pending' | 'running'; attempts: number; leaseUntil: Date | null; createdAt: Date }) {
    const { body, deliveryId } = eventBody({ event: 'conversation.started' });
    await storeDelivery({ id: deliveryRecordId, deliveryId, event: 'conversation.started', body });
    await ActionOutcomeModel.create({
      _id: outcomeId,
      delivery: deliveryRecordId,
      run: 0,
      rule: 'notify',
      index: 0,
      type: 'http',
      spec: { method: 'POST', url: `${sink.url}/hook/${deliveryId}`, headers: {}, body: '{}' },
      ...state,
    });
    return { deliveryId };
  }

  it('takes the next attempt when a runner claimed one but lost the database before marking it running', async () => {
    const worker = runtimes.at(-1)!;
    // What a database outage between the claim insert and the outcome update leaves: claim #1, outcome still pending.
    const now = new Date();
    const outcomeId = '55555555-5555-4555-8555-555555555555';
    const { deliveryId } = await storeActionOutcome('44444444-4444-4444-8444-444444444444', outcomeId, { status: 'pending', attempts: 0, leaseUntil: null, createdAt: now });
    await ActionClaimModel.create({ _id: `${outcomeId}#1`, outcome: outcomeId, attempt: 1, claimedAt: now });
    const s = gateway.state();
    const services = { mailer: s.mailer, outbound: s.outbound, sourceOf: () => null };
    const at = (ms: number) => ({ ...worker.ctx, clock: { now: () => new Date(now.getTime() + ms) } satisfies Clock });

    // Within a lease of the claim its runner may still be at work: nothing runs.
    await performAction(at(5_000), services, [50, 50], { outcomeIds: [outcomeId] });
    expect(await ActionOutcomeModel.findById(outcomeId).lean()).toMatchObject({ status: 'pending', attempts: 0 });
    expect(sink.requests.some((r) => r.url === `/hook/${deliveryId}`)).toBe(false);

    // After it: the next attempt runs once.
    await performAction(at(worker.ctx.config.JOB_LOCK_LIFETIME_MS + 1_000), services, [50, 50], { outcomeIds: [outcomeId] });
    expect(await ActionOutcomeModel.findById(outcomeId).lean()).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(sink.requests.filter((r) => r.url === `/hook/${deliveryId}`)).toHaveLength(1);
  });

  it('comes back after the lease when a job is re-locked while a dead runner still holds the attempt', async () => {
    const worker = runtimes.at(-1)!;
    // What a runner killed mid-request leaves: attempt 1 claimed and running, its lease 20 s ahead.
    const now = new Date();
    const outcomeId = '33333333-3333-4333-8333-333333333333';
    const { deliveryId } = await storeActionOutcome('22222222-2222-4222-8222-222222222222', outcomeId, {
      status: 'running',
      attempts: 1,
      leaseUntil: new Date(now.getTime() + 20_000),
      createdAt: now,
    });
    const s = gateway.state();
    const services = { mailer: s.mailer, outbound: s.outbound, sourceOf: () => null };
    const at = (ms: number) => ({ ...worker.ctx, clock: { now: () => new Date(now.getTime() + ms) } satisfies Clock });

    // Before the lease ends: not run, and not finished either; Agenda is told to come back after it.
    const early = await performAction(at(5_000), services, [50, 50], { outcomeIds: [outcomeId] }).then(() => null, (err: unknown) => err);
    expect(early).toBeInstanceOf(RetryableActionError);
    expect((early as RetryableActionError).delayMs).toBe(16_000);
    expect(sink.requests.some((r) => r.url === `/hook/${deliveryId}`)).toBe(false);

    // After it: the next attempt runs.
    await performAction(at(21_000), services, [50, 50], { outcomeIds: [outcomeId] });
    expect(await ActionOutcomeModel.findById(outcomeId).lean()).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(sink.requests.filter((r) => r.url === `/hook/${deliveryId}`)).toHaveLength(1);
  });
});
