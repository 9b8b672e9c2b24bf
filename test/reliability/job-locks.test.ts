// Job locks: two workers on one database never run the same job at the same time, even when its
// handler runs for a while, because the lock lifetime is well above any step's duration; and a job
// whose lock runs out before it starts does not use up its name's lock limit in the process.
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.ts';
import { testConfig, useTestRuntime, waitFor } from '../helpers/harness.ts';

describe('job locks across workers', () => {
  const rt = useTestRuntime();
  let other: { client: MongoClient; jobs: Scheduler } | undefined;
  afterAll(async () => {
    await other?.jobs.drain();
    await other?.client.close();
  });

  it('runs a long job once, on one worker, while a second worker polls the same queue', async () => {
    let running = 0;
    let maxRunning = 0;
    const runs: string[] = [];
    const handler = (worker: string) => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      runs.push(worker);
      // Longer than several poll intervals of both workers (100 ms in tests).
      await new Promise((r) => setTimeout(r, 1200));
      running--;
    };
    const client = await MongoClient.connect(rt.uri);
    const jobs = createScheduler(client.db(), rt.config, 'second-worker');
    other = { client, jobs };
    rt.runtime.ctx.jobs.define('locks.long', handler('first'));
    jobs.define('locks.long', handler('second'));
    // Both workers poll from the start. On FerretDB v1 this needs the patch's turn-taking of
    // updates (test/db/lost-update.test.ts): without it both workers' lock, a findOneAndUpdate, could
    // read the job unlocked and both run it.
    await jobs.start();
    await rt.runtime.ctx.jobs.now('locks.long', { id: 1 });
    // Waits for the first run to end; a second run would show in `runs` below, not as a timeout.
    await waitFor(() => runs.length >= 1 && running === 0);
    // Both workers poll several more times after the run; none picks the finished job again.
    await new Promise((r) => setTimeout(r, 500));
    expect(runs).toHaveLength(1);
    expect(maxRunning).toBe(1);
  });

  // Its waits add up to 12 s + 30 s + 30 s at most, past the suite's 60 s: on a loaded machine a
  // correct but slow run was cut off by the test's own timeout (a fresh-clone CI run at 17ec912).
  it('gives back the lock count of a job whose lock ran out while it waited here, so its name keeps running jobs', async () => {
    const client = await MongoClient.connect(rt.uri);
    // Polls an hour apart: only the notification of a new job locks, so the job below is locked
    // as it is scheduled, seconds before it is due.
    const jobs = createScheduler(client.db(), testConfig({ JOB_PROCESS_EVERY_MS: '3600000' }, rt.uri), 'expiring-worker');
    try {
      const runs: number[] = [];
      // Lock limit 1, as the scheduler sets for concurrency 1; a lock lifetime far below the wait.
      // Kept after success, as before removeOnComplete: with the removal this timed out twice when
      // run beside other files (not yet understood; issue 17's note), and it is about lock counts.
      jobs.define('locks.expiring', async (job) => void runs.push(job.attrs.data.i), { concurrency: 1, lockLifetime: 100, removeOnComplete: false });
      await jobs.start();
      const stats = async () => {
        const s = await jobs.getRunningStats();
        return { queued: s.queuedJobs as number, locked: s.jobStatus?.['locks.expiring']?.locked ?? 0 };
      };

      // Due well after the lock query answers, also on a loaded machine: with 1 s, a slow lock query
      // found it due and ran it at once in one of five loaded runs, and with 4 s once in a full
      // suite run beside a benchmark-sized backlog. The test waits for it, so it costs that long.
      const due = Date.now() + 12_000;
      await jobs.schedule(new Date(due), 'locks.expiring', { i: 1 });
      // Locked and waiting in the local queue for its time.
      expect(await waitFor(async () => ((s) => s.queued === 1 && s)(await stats()))).toEqual({ queued: 1, locked: 1 });
      // At its time its lock has run out, and Agenda drops it from the queue without running it.
      await waitFor(async () => Date.now() > due && (await stats()).queued === 0, 30_000);
      expect(runs).toEqual([]);
      expect(await stats()).toEqual({ queued: 0, locked: 0 });

      // The name can still lock: new jobs run, and a lock attempt takes the dropped job (its lock
      // ran out) and runs it. Were the count not given back, the name would stay at its limit and
      // send no lock query at all. A new job is enqueued each second while waiting: with polls an
      // hour apart only notifications lock here, and on a loaded machine one notification's
      // attempt can find another still in flight and give way (jobs/scheduler.ts), which a
      // worker's next poll covers in production. Failed once in a fresh-clone CI run without this.
      let next = 2;
      let nudgedAt = 0;
      await waitFor(async () => {
        if (runs.includes(1)) return true;
        if (Date.now() - nudgedAt >= 1_000) {
          nudgedAt = Date.now();
          await jobs.now('locks.expiring', { i: next++ });
        }
        return false;
      }, 30_000);
      expect(runs).toContain(1);
    } finally {
      await jobs.drain();
      await client.close();
    }
  }, 90_000);
});
