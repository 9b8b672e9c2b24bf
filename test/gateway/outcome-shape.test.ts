// The stored layout of rule and action outcomes (model.ts, release 1.0.0): every field is stored,
// null where it holds nothing, at planning and after every attempt; the public id is `_id` alone.
// The admin API shows those nulls as null.
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction, RetryableActionError } from '../../src/gateway/action.job.ts';
import { ActionClaimModel, RuleOutcomeModel } from '../../src/gateway/model.ts';
import { performProcess } from '../../src/gateway/process.job.ts';
import { ACTION_JOB } from '../../src/gateway/service.ts';
import { performSweep } from '../../src/gateway/sweep.job.ts';
import type { Clock } from '../../src/clock.ts';
import { adminApi } from '../helpers/factories.ts';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway, storeWaiting } from './support/runtime.ts';
import { startSink, type Sink } from './support/servers.ts';

const files = gatewayFiles(
  { sources: { relay: { secrets: ['outcome-shape-secret-0123456789'] } } },
  {
    'log.json': { name: 'log-started', events: ['conversation.started'], actions: [{ type: 'log', message: "'started ' & deliveryId" }] },
    // Needs a job of its own (email to DATA_DIR/outbox: no server).
    'mail.json': { name: 'mail-escalated', events: ['conversation.escalated'], actions: [{ type: 'email', to: "'ops@example.com'", subject: "'Escalated'", text: 'deliveryId' }] },
  },
);

const raw = () => mongoose.connection.db!.collection<Record<string, unknown>>('gatewayActionOutcomes');
const rawRules = () => mongoose.connection.db!.collection<Record<string, unknown>>('gatewayRuleOutcomes');
const keysOf = (doc: Record<string, unknown> | null) => Object.keys(doc ?? {}).sort();
const ACTION_FIELDS = ['_id', 'attempts', 'createdAt', 'delivery', 'error', 'finishedAt', 'index', 'leaseUntil', 'result', 'rule', 'run', 'spec', 'status', 'sweptAt', 'type'];
const RULE_FIELDS = ['_id', 'delivery', 'error', 'evaluatedAt', 'file', 'result', 'rule', 'run'];

describe('gateway outcome shape', () => {
  const { gateway, modules, view, services } = modulesWithGateway();
  // No worker: this test runs the jobs itself.
  const rt = useTestRuntime({ env: files.env, modules, worker: false });
  const shown = async (id: string) => {
    const res = await adminApi(rt)('get', `/gateway/deliveries/${id}`);
    expect(res.status).toBe(200);
    return res.body.delivery;
  };
  const listed = async () => {
    const res = await adminApi(rt)('get', '/gateway/deliveries?limit=100');
    expect(res.status).toBe(200);
    return res.body;
  };
  let sink: Sink;

  beforeAll(async () => {
    sink = await startSink();
    await waitFor(() => gateway.state().rules.rules.rules.length === 2);
  });
  afterAll(async () => {
    await sink?.close();
  });

  it('stores every field, null where it holds nothing, at planning and after each attempt, and shows the nulls as null', async () => {
    const [[started], [escalated]] = [await storeWaiting('conversation.started'), await storeWaiting('conversation.escalated')];
    await performProcess(rt.runtime.ctx, view, { deliveries: [started, escalated].map((id) => ({ id, run: 0 })) });
    // Run in place: finished, never waited for a job (sweptAt null), no lease, no error.
    const inPlace = (await raw().findOne({ delivery: started }))!;
    expect(keysOf(inPlace)).toEqual(ACTION_FIELDS);
    expect(inPlace).toMatchObject({ status: 'succeeded', leaseUntil: null, error: null, sweptAt: null, finishedAt: expect.any(Date) });
    // Waiting for its job: `sweptAt` set, nothing of an attempt.
    const mail = (await raw().findOne({ delivery: escalated }))!;
    expect(keysOf(mail)).toEqual(ACTION_FIELDS);
    expect(mail).toMatchObject({ status: 'pending', leaseUntil: null, result: null, error: null, finishedAt: null, sweptAt: expect.any(Date) });
    const rule = await rawRules().findOne({ delivery: started });
    expect(keysOf(rule)).toEqual(RULE_FIELDS);
    expect(rule).toMatchObject({ result: 'matched', error: null });

    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [String(mail._id)] });
    const sent = (await raw().findOne({ _id: mail._id }))!;
    expect(keysOf(sent)).toEqual(ACTION_FIELDS);
    expect(sent).toMatchObject({ status: 'succeeded', attempts: 1, leaseUntil: null, error: null, finishedAt: expect.any(Date) });

    // A failed attempt stores its error and a null lease; the attempt that succeeds sets the error null.
    sink.statuses = [500, 200];
    const http = randomUUID();
    const now = new Date();
    const spec = { method: 'POST', url: `${sink.url}/shape`, headers: {}, body: '{}' };
    await raw().insertOne({ _id: http as never, delivery: escalated, run: 0, rule: 'mail-escalated', index: 1, type: 'http', spec, status: 'pending', attempts: 0, leaseUntil: null, result: null, error: null, createdAt: now, finishedAt: null, sweptAt: now });
    const first = await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [http] }).then(() => null, (err: unknown) => err);
    expect(first).toBeInstanceOf(RetryableActionError);
    const retrying = (await raw().findOne({ _id: http as never }))!;
    expect(keysOf(retrying)).toEqual(ACTION_FIELDS);
    expect(retrying).toMatchObject({ status: 'retrying', attempts: 1, error: expect.any(String), leaseUntil: null, finishedAt: null });
    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [http] });
    const done = (await raw().findOne({ _id: http as never }))!;
    expect(keysOf(done)).toEqual(ACTION_FIELDS);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, error: null, leaseUntil: null, finishedAt: expect.any(Date) });

    const one = await shown(escalated);
    expect(one.rules[0]).toMatchObject({ error: null });
    expect(one.rules[0].actions.map((a: any) => [a.id, a.index, a.status, a.attempts, a.error])).toEqual([
      [mail._id, 0, 'succeeded', 1, null],
      [http, 1, 'succeeded', 2, null],
    ]);
    const page = await listed();
    const inList = page.deliveries.find((d: any) => d.id === started);
    expect(inList.rules[0].actions).toEqual([expect.objectContaining({ id: inPlace._id, error: null, finishedAt: (inPlace.finishedAt as Date).toISOString() })]);
  });

  it('sweeps a pending outcome past its grace period once, then runs and shows it', async () => {
    const [delivery] = await storeWaiting('order.paid');
    const createdAt = new Date(Date.now() - 120_000);
    const id = randomUUID();
    await raw().insertOne({ _id: id as never, delivery, run: 0, rule: 'stored', index: 0, type: 'log', spec: { level: 'info', message: 'stored' }, status: 'pending', attempts: 0, leaseUntil: null, result: null, error: null, createdAt, finishedAt: null, sweptAt: createdAt });
    await RuleOutcomeModel.collection.insertOne({ _id: `${delivery}:0:stored` as never, delivery, run: 0, rule: 'stored', file: 'stored.json', result: 'matched', error: null, evaluatedAt: createdAt });

    const jobs = mongoose.connection.db!.collection<{ name: string; data: { outcomeIds: string[] } }>('agendaJobs');
    await jobs.deleteMany({ name: ACTION_JOB });
    const now = new Date();
    const clock: Clock = { now: () => now };
    expect(await performSweep({ ...rt.runtime.ctx, clock }, 30_000)).toEqual({ deliveries: 0, actions: 1 });
    expect((await jobs.find({ name: ACTION_JOB }).toArray()).flatMap((j) => j.data.outcomeIds)).toEqual([id]);
    expect(((await raw().findOne({ _id: id as never }))!.sweptAt as Date).getTime()).toBe(now.getTime());
    // Enqueued again within the grace period: not swept a second time.
    expect(await performSweep({ ...rt.runtime.ctx, clock }, 30_000)).toEqual({ deliveries: 0, actions: 0 });

    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [id] });
    expect(await raw().findOne({ _id: id as never })).toMatchObject({ status: 'succeeded', attempts: 1, result: { message: 'stored' }, leaseUntil: null, error: null });
    expect((await ActionClaimModel.collection.find({ outcome: id }).toArray()).map((c) => c._id)).toEqual([`${id}#1`]);
    const body = await shown(delivery);
    expect(body.rules[0].actions.map((a: any) => [a.id, a.status, a.attempts, a.error, a.result])).toEqual([[id, 'succeeded', 1, null, { message: 'stored' }]]);
  });
});
