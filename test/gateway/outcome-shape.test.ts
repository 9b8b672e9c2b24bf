// The stored shape of rule and action outcomes (model.ts, session 36): only the fields that hold
// something are stored, at planning and after every attempt, and the admin API shows what it
// showed when the nulls were stored. Rows of the earlier shapes (nulls stored, `id` beside a string
// `_id` or an ObjectId one, no `sweptAt` at all) and without the `id` copy (as a later release may
// store them) are swept, run and listed side by side.
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
const BASE = ['_id', 'attempts', 'createdAt', 'delivery', 'id', 'index', 'rule', 'run', 'spec', 'status', 'type'];

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

  it('stores only the fields that hold something, at planning and after each attempt, and shows them as the nulls stored before', async () => {
    const [[started], [escalated]] = [await storeWaiting('conversation.started'), await storeWaiting('conversation.escalated')];
    await performProcess(rt.runtime.ctx, view, { deliveries: [started, escalated].map((id) => ({ id, run: 0 })) });
    // Run in place: finished, no `sweptAt` (it never waits for a job), no lease, no error.
    expect(keysOf(await raw().findOne({ delivery: started }))).toEqual([...BASE, 'finishedAt', 'result'].sort());
    // Waiting for its job: `sweptAt`, nothing of an attempt.
    const mail = (await raw().findOne({ delivery: escalated }))!;
    expect(keysOf(mail)).toEqual([...BASE, 'sweptAt'].sort());
    expect(keysOf(await rawRules().findOne({ delivery: started }))).toEqual(['_id', 'delivery', 'evaluatedAt', 'file', 'result', 'rule', 'run']);

    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [String(mail._id)] });
    const sent = (await raw().findOne({ _id: mail._id }))!;
    expect(sent).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(keysOf(sent).filter((k) => !BASE.includes(k))).toEqual(['finishedAt', 'result', 'sweptAt']);

    // A failed attempt stores its error and no lease; the attempt that succeeds removes the error.
    sink.statuses = [500, 200];
    const http = randomUUID();
    const now = new Date();
    await raw().insertOne({ _id: http as never, id: http, delivery: escalated, run: 0, rule: 'mail-escalated', index: 1, type: 'http', spec: { method: 'POST', url: `${sink.url}/shape`, headers: {}, body: '{}' }, status: 'pending', attempts: 0, createdAt: now, sweptAt: now });
    const first = await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [http] }).then(() => null, (err: unknown) => err);
    expect(first).toBeInstanceOf(RetryableActionError);
    const retrying = (await raw().findOne({ _id: http as never }))!;
    expect(retrying).toMatchObject({ status: 'retrying', attempts: 1, error: expect.any(String) });
    expect(keysOf(retrying).filter((k) => !BASE.includes(k))).toEqual(['error', 'result', 'sweptAt']);
    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: [http] });
    const done = (await raw().findOne({ _id: http as never }))!;
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(keysOf(done).filter((k) => !BASE.includes(k))).toEqual(['finishedAt', 'result', 'sweptAt']);

    // The API's JSON is what it was when every field was stored: rewrite the rows in the old shape and compare.
    const before = [await shown(started), await shown(escalated), await listed()];
    expect(before[0].rules[0]).toMatchObject({ error: null, actions: [{ error: null, finishedAt: expect.any(String) }] });
    expect(before[1].rules[0].actions.map((a: any) => [a.id, a.status, a.error])).toEqual([
      [mail._id, 'succeeded', null],
      [http, 'succeeded', null],
    ]);
    for (const row of await raw().find({ delivery: { $in: [started, escalated] } }).toArray()) {
      await raw().replaceOne({ _id: row._id }, { id: row._id, leaseUntil: null, result: null, error: null, finishedAt: null, sweptAt: null, ...row });
    }
    await rawRules().updateMany({ delivery: { $in: [started, escalated] } }, { $set: { error: null } });
    expect(await raw().countDocuments({ delivery: { $in: [started, escalated] }, leaseUntil: null, id: { $type: 'string' } })).toBe(3);
    expect([await shown(started), await shown(escalated), await listed()]).toEqual(before);
  });

  it('sweeps, runs and lists outcomes of every stored shape side by side', async () => {
    const [delivery] = await storeWaiting('order.paid');
    const createdAt = new Date(Date.now() - 120_000);
    const common = { delivery, run: 0, rule: 'mixed', type: 'log', status: 'pending', attempts: 0, createdAt };
    const spec = (message: string) => ({ level: 'info', message });
    const nulls = { leaseUntil: null, result: null, error: null, finishedAt: null };
    const [current, copied, objectIdRow, noSweptAt] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const objectId = new mongoose.Types.ObjectId();
    await raw().insertMany([
      // Without the `id` copy, as a later release may store it (model.ts).
      { _id: current as never, ...common, index: 0, spec: spec('current'), sweptAt: createdAt },
      // Stored with the `id` copy and the nulls.
      { _id: copied as never, id: copied, ...common, index: 1, spec: spec('copied'), ...nulls, sweptAt: createdAt },
      // From before records carried their id as `_id`, and before intake set `sweptAt` (stored null).
      { _id: objectId as never, id: objectIdRow, ...common, index: 2, spec: spec('objectId'), ...nulls, sweptAt: null },
      // From before `sweptAt` existed at all: the sweep's `sweptAt: null` must match it absent.
      { _id: noSweptAt as never, id: noSweptAt, ...common, index: 3, spec: spec('no sweptAt'), ...nulls },
    ]);
    await RuleOutcomeModel.collection.insertOne({ _id: `${delivery}:0:mixed` as never, delivery, run: 0, rule: 'mixed', file: 'mixed.json', result: 'matched', evaluatedAt: createdAt });
    const ids = [current, copied, objectIdRow, noSweptAt];

    const jobs = mongoose.connection.db!.collection<{ name: string; data: { outcomeIds: string[] } }>('agendaJobs');
    await jobs.deleteMany({ name: ACTION_JOB });
    const now = new Date();
    const clock: Clock = { now: () => now };
    expect(await performSweep({ ...rt.runtime.ctx, clock }, 30_000)).toEqual({ deliveries: 0, actions: 4 });
    expect((await jobs.find({ name: ACTION_JOB }).toArray()).flatMap((j) => j.data.outcomeIds).sort()).toEqual([...ids].sort());
    expect((await raw().find({ delivery }).toArray()).map((o) => [o.index, (o.sweptAt as Date).getTime()])).toEqual([0, 1, 2, 3].map((i) => [i, now.getTime()]));

    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: ids });
    const rows = await raw().find({ delivery }, { sort: { index: 1 } }).toArray();
    expect(rows.map((o) => [o.status, o.attempts, (o.result as { message: string }).message])).toEqual(['current', 'copied', 'objectId', 'no sweptAt'].map((m) => ['succeeded', 1, m]));
    expect(rows.every((o) => !('leaseUntil' in o) && !('error' in o))).toBe(true);
    expect((await ActionClaimModel.collection.find({ outcome: { $in: ids } }).toArray()).map((c) => c._id).sort()).toEqual(ids.map((id) => `${id}#1`).sort());

    const body = await shown(delivery);
    expect(body.rules).toHaveLength(1);
    expect(body.rules[0].error).toBeNull();
    expect(body.rules[0].actions.map((a: any) => [a.id, a.index, a.status, a.attempts, a.error, a.result])).toEqual(
      ['current', 'copied', 'objectId', 'no sweptAt'].map((m, i) => [ids[i], i, 'succeeded', 1, null, { message: m }]),
    );
  });
});
