// Behaviour under a backlog (found by the database-outage load test): the sweep re-enqueues a
// waiting delivery or action at most once per grace period instead of every minute, and a long
// process batch keeps extending its job lock instead of being handed to a second run.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import type { Clock } from '../../src/clock.ts';
import { trusted } from '../../src/db/connection.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { performProcess } from '../../src/gateway/process.job.ts';
import { ACTION_JOB, PROCESS_JOB } from '../../src/gateway/service.ts';
import { performSweep } from '../../src/gateway/sweep.job.ts';
import { useTestRuntime } from '../helpers/harness.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway, storeWaiting } from './support/runtime.ts';
import { eventBody, sendSigned } from './support/signing.ts';

const GRACE_MS = 30_000;
let nowMs = Date.parse('2026-11-23T12:00:00Z');
/** Advances by `stepMs` on every read, so time passes while a batch runs. */
let stepMs = 0;
const clock: Clock = {
  now: () => {
    nowMs += stepMs;
    return new Date(nowMs);
  },
};

const SECRET = 'backlog-secret-0123456789';
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] } }, vars: { sink: 'http://127.0.0.1:9/unused' } },
  { 'log.json': { name: 'log-all', actions: [{ type: 'log' }] } },
);


const queued = (name: string) => mongoose.connection.db!.collection('agendaJobs').countDocuments({ name });

describe('the gateway under a backlog', () => {
  const { gateway, modules } = modulesWithGateway();
  // No worker: queued jobs stay queued, as behind a long backlog.
  const rt = useTestRuntime({ env: files.env, clock, modules, worker: false });
  let waiting: string[];

  beforeAll(async () => {
    waiting = await storeWaiting('conversation.started', 3, new Date(nowMs - 60_000));
    await ActionOutcomeModel.create({
      _id: randomUUID(),
      delivery: randomUUID(),
      run: 0,
      rule: 'log-all',
      index: 0,
      type: 'log',
      spec: {},
      status: 'pending',
      createdAt: new Date(nowMs - 60_000),
    });
  });

  it('re-enqueues a waiting delivery and action once per grace period, not on every sweep', async () => {
    expect(await performSweep(rt.runtime.ctx, GRACE_MS)).toEqual({ deliveries: 3, actions: 1 });
    expect(await queued(PROCESS_JOB)).toBe(1);
    expect(await queued(ACTION_JOB)).toBe(1);

    // Still unprocessed a minute later (the sweep's period), but enqueued within the grace period.
    nowMs += 20_000;
    expect(await performSweep(rt.runtime.ctx, GRACE_MS)).toEqual({ deliveries: 0, actions: 0 });
    expect(await queued(PROCESS_JOB)).toBe(1);

    // A whole grace period after that sweep, the queued jobs may really be lost: enqueue again.
    nowMs += GRACE_MS;
    expect(await performSweep(rt.runtime.ctx, GRACE_MS)).toEqual({ deliveries: 3, actions: 1 });
    expect(await queued(PROCESS_JOB)).toBe(2);
    expect(await queued(ACTION_JOB)).toBe(2);
  });

  it('re-enqueues a delivery taken by intake but never processed a grace period after intake, not before', async () => {
    const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started' }, { event: 'conversation.started' });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    // Intake queued it (the job waits: no worker) and the row says so.
    expect(await GatewayDeliveryModel.findById(id, { sweptAt: 1 }).lean()).toMatchObject({ sweptAt: new Date(nowMs) });
    const sweptNow = async () => (await GatewayDeliveryModel.findById(id, { sweptAt: 1 }).lean())!.sweptAt!.getTime() === nowMs;
    nowMs += GRACE_MS - 1_000;
    await performSweep(rt.runtime.ctx, GRACE_MS);
    expect(await sweptNow()).toBe(false);
    nowMs += 2_000;
    expect((await performSweep(rt.runtime.ctx, GRACE_MS)).deliveries).toBeGreaterThanOrEqual(1);
    expect(await sweptNow()).toBe(true);
  });

  it('extends its job lock while a batch runs longer than a few seconds, and not when it is quick', async () => {
    const view = () => ({ rules: gateway.state().rules.rules, vars: gateway.state().vars });
    const batch = (ids: string[]) => ({ deliveries: ids.map((id) => ({ id, run: 0 })) });
    let touches = 0;
    const touch = async () => {
      touches++;
    };

    stepMs = 0;
    const quick = await storeWaiting('conversation.started', 2, new Date(nowMs));
    await performProcess(rt.runtime.ctx, view, batch(quick), touch);
    expect(touches).toBe(0);

    // Every clock read moves 6 s on: the batch "takes" well over the 5 s touch interval (a batch
    // reads the clock about once per delivery, so each step must pass the interval on its own).
    stepMs = 6_000;
    await performProcess(rt.runtime.ctx, view, batch(waiting), touch);
    stepMs = 0;
    expect(touches).toBeGreaterThanOrEqual(2);
    const processed = await GatewayDeliveryModel.find({ id: trusted({ $in: [...quick, ...waiting] }) }, { processedAt: 1 }).lean();
    expect(processed.filter((d) => d.processedAt !== null)).toHaveLength(5);
  });
});
