// Recurring jobs are declared by every worker at start (jobs/scheduler.ts, ensureRecurring): a
// declaration must not move the next run of a schedule that already exists, or workers restarted
// more often than the interval would keep an hourly job from ever running.
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { ensureRecurring } from '../../src/jobs/scheduler.ts';

describe('recurring job declarations', () => {
  const rt = useTestRuntime({ worker: false });
  const jobs = () => rt.runtime.ctx.jobs;
  const stored = async (name: string) => {
    const found = await jobs().queryJobs({ name });
    expect(found.total).toBe(1);
    const job = found.jobs[0]!;
    return { nextRunAt: new Date(job.nextRunAt!).getTime(), repeatInterval: job.repeatInterval };
  };

  it('schedules a new job one interval out, and a later declaration keeps its next run', async () => {
    jobs().define('recurring.keep', async () => undefined);
    const before = Date.now();
    await ensureRecurring(jobs(), '1 hour', 'recurring.keep');
    const first = await stored('recurring.keep');
    expect(first.nextRunAt).toBeGreaterThanOrEqual(before + 60 * 60_000 - 1_000);

    // A worker started again a little later (what every() alone moves an hour on).
    await new Promise((r) => setTimeout(r, 50));
    await ensureRecurring(jobs(), '1 hour', 'recurring.keep');
    expect(await stored('recurring.keep')).toEqual(first);
  });

  it('leaves an overdue run due, so it runs at once instead of an interval later', async () => {
    jobs().define('recurring.overdue', async () => undefined);
    await ensureRecurring(jobs(), '1 hour', 'recurring.overdue');
    const overdue = new Date(Date.now() - 10 * 60_000);
    await mongoose.connection.db!.collection('agendaJobs').updateOne({ name: 'recurring.overdue' }, { $set: { nextRunAt: overdue } });
    await ensureRecurring(jobs(), '1 hour', 'recurring.overdue');
    expect((await stored('recurring.overdue')).nextRunAt).toBe(overdue.getTime());
  });

  it('declares the job again when its interval changed', async () => {
    jobs().define('recurring.changed', async () => undefined);
    await ensureRecurring(jobs(), '1 hour', 'recurring.changed');
    const before = Date.now();
    await ensureRecurring(jobs(), '1 minute', 'recurring.changed');
    const changed = await stored('recurring.changed');
    expect(changed.repeatInterval).toBe('1 minute');
    expect(changed.nextRunAt).toBeLessThan(before + 5 * 60_000);
  });
});

describe('one-time jobs that succeeded', () => {
  const rt = useTestRuntime({ worker: false });
  const agendaJobs = () => mongoose.connection.db!.collection('agendaJobs');

  it('are deleted once they succeed; a failed one-time job is kept', { timeout: 60_000 }, async () => {
    const jobs = rt.runtime.ctx.jobs;
    jobs.define('cleanup.ok', async () => undefined);
    jobs.define('cleanup.fails', async () => {
      throw new Error('kept for the operator');
    });
    await jobs.start();
    try {
      await jobs.now('cleanup.ok', {});
      await jobs.now('cleanup.fails', {});
      await waitFor(async () => (await agendaJobs().countDocuments({ name: 'cleanup.ok' })) === 0 && (await agendaJobs().countDocuments({ name: 'cleanup.fails', failedAt: { $ne: null } })) === 1, 30_000);
    } finally {
      await jobs.stop();
    }
  });
});
