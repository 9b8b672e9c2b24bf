// The MongoDB features the service relies on, proven against the database the suite runs on
// (FerretDB v1.24.2 here, MongoDB when MONGODB_URI is set). docs/FERRETDB.md lists what we avoid.
import { describe, expect, it } from 'vitest';
import mongoose, { Schema } from 'mongoose';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';

const Thing = mongoose.model('CompatThing', new Schema({ key: { type: String, unique: true }, count: Number }));

describe('database compatibility', () => {
  const rt = useTestRuntime();

  it('rejects a duplicate on a unique index with code 11000', async () => {
    await Thing.createIndexes();
    await Thing.create({ key: 'a' });
    await expect(Thing.create({ key: 'a' })).rejects.toMatchObject({ code: 11000 });
  });

  it('upserts with findOneAndUpdate and increments on the second call', async () => {
    const first = await Thing.findOneAndUpdate({ key: 'u' }, { $inc: { count: 1 } }, { upsert: true, returnDocument: 'after' });
    const second = await Thing.findOneAndUpdate({ key: 'u' }, { $inc: { count: 1 } }, { upsert: true, returnDocument: 'after' });
    expect(first?.count).toBe(1);
    expect(second?.count).toBe(2);
    expect(await Thing.countDocuments({ key: 'u' })).toBe(1);
  });

  it('updates every matched document of an updateMany over several write batches, and keeps those updated before a failing one', async () => {
    // Relay's FerretDB patch writes an update's documents 100 to a transaction (docs/FERRETDB.md).
    const things = mongoose.connection.db!.collection('compatUpdateBatches');
    await things.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: `t${String(i).padStart(3, '0')}` as never, n: 1, group: 'a' })));
    expect((await things.updateMany({ group: 'a' }, { $inc: { n: 1 } })).modifiedCount).toBe(250);
    expect(await things.countDocuments({ n: 2 })).toBe(250);
    // MongoDB stops at the first document it cannot update; the ones before it stay updated.
    await things.updateOne({ _id: 't180' as never }, { $set: { n: 'text' } });
    await expect(things.updateMany({ group: 'a' }, { $inc: { n: 1 } }, { hint: { _id: 1 } })).rejects.toThrow();
    expect(await things.countDocuments({ n: 3 })).toBe(180);
    expect(await things.countDocuments({ n: 2 })).toBe(69);
  });

  it('runs a now() job exactly once', async () => {
    const runs: string[] = [];
    rt.runtime.ctx.jobs.define('compat.now', async (job) => {
      runs.push(job.attrs.data.tag);
    });
    await rt.runtime.ctx.jobs.now('compat.now', { tag: 'n1' });
    await waitFor(() => runs.length >= 1);
    // A later job of the same name proves the worker kept polling without re-running n1.
    await rt.runtime.ctx.jobs.now('compat.now', { tag: 'n2' });
    await waitFor(() => runs.includes('n2'));
    expect(runs).toEqual(['n1', 'n2']);
  });

  it('runs each of many now() jobs exactly once although the notification and the scan race to lock them', { timeout: 120_000 }, async () => {
    // Without per-name serialised locking (src/jobs/scheduler.ts), FerretDB ran most of these twice.
    const runs = new Map<number, number>();
    rt.runtime.ctx.jobs.define('compat.many', async (job) => {
      const i = job.attrs.data.i as number;
      runs.set(i, (runs.get(i) ?? 0) + 1);
    });
    for (let i = 0; i < 20; i++) await rt.runtime.ctx.jobs.now('compat.many', { i });
    await waitFor(() => runs.size === 20, 60_000);
    // Let any second lock of an already-run job surface before counting: a job that succeeded is
    // deleted (removeOnComplete), so none left means none is still locked or running.
    await waitFor(async () => (await rt.runtime.ctx.jobs.queryJobs({ name: 'compat.many' })).total === 0, 60_000);
    expect([...runs.values()].filter((n) => n !== 1)).toEqual([]);
  });

  it('runs a delayed job once, not before its time', async () => {
    const ranAt: number[] = [];
    rt.runtime.ctx.jobs.define('compat.delayed', async () => {
      ranAt.push(Date.now());
    });
    const due = new Date(Date.now() + 400);
    await rt.runtime.ctx.jobs.schedule(due, 'compat.delayed', {});
    await waitFor(() => ranAt.length === 1);
    expect(ranAt[0]).toBeGreaterThanOrEqual(due.getTime() - 50);
    // Deleted once it succeeded (removeOnComplete): no second copy was left to run again.
    await waitFor(async () => (await rt.runtime.ctx.jobs.queryJobs({ name: 'compat.delayed' })).total === 0);
    expect(ranAt).toHaveLength(1);
  });

  it('runs a recurring every() job, and a second every() of the same name keeps one document due an interval later', async () => {
    let runs = 0;
    rt.runtime.ctx.jobs.define('compat.every', async () => {
      runs++;
    });
    await rt.runtime.ctx.jobs.every('1 hour', 'compat.every', {});
    await waitFor(() => runs === 1);
    // What a restarted process does: declare the schedule again without running it at once.
    await rt.runtime.ctx.jobs.every('1 hour', 'compat.every', {}, { skipImmediate: true });
    const jobs = await rt.runtime.ctx.jobs.queryJobs({ name: 'compat.every' });
    expect(jobs.total).toBe(1);
    const next = new Date(jobs.jobs[0]!.nextRunAt!).getTime();
    expect(next - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(runs).toBe(1);
  });

  it('stores and runs an insert-only unique() job once however often it is saved', async () => {
    let runs = 0;
    rt.runtime.ctx.jobs.define('compat.unique', async () => {
      runs++;
    });
    const at = new Date(Date.now() + 300);
    for (let i = 0; i < 3; i++) {
      const job = rt.runtime.ctx.jobs.create('compat.unique', { key: 'same' });
      // insertOnly: a later save must not reschedule a job that already ran (a slow save can land
      // after the run, on MongoDB as on FerretDB).
      job.unique({ 'data.key': 'same' }, { insertOnly: true });
      job.schedule(at);
      await job.save();
    }
    const jobs = await rt.runtime.ctx.jobs.queryJobs({ name: 'compat.unique' });
    expect(jobs.total).toBe(1);
    await waitFor(() => runs >= 1);
    expect(runs).toBe(1);
  });
});
