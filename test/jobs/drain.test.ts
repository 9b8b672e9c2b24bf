// A drain returns once the running jobs are done, whenever it is called: Agenda's own waited for a
// `complete` event that came before the job left its running list (jobs/scheduler.ts,
// drainEndsWhenLastJobLeaves).
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.ts';
import { testConfig, useTestRuntime } from '../helpers/harness.ts';

describe('job drain', () => {
  const rt = useTestRuntime({ worker: false });
  const clients: MongoClient[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  async function worker(name: string, handler: () => Promise<void>): Promise<Scheduler> {
    const client = await MongoClient.connect(rt.uri);
    clients.push(client);
    const jobs = createScheduler(client.db(), testConfig({ JOB_PROCESS_EVERY_MS: '100' }, rt.uri), name);
    jobs.define('drain.a', handler);
    await jobs.ready;
    await jobs.start();
    return jobs;
  }

  /** The drain's result, or a message if it has not returned in 20 s (the unpatched drain never does). */
  async function within20s(drained: Promise<unknown>): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise((r) => (timer = setTimeout(() => r('still draining after 20 s'), 20_000)));
    return Promise.race([drained, stuck]).finally(() => clearTimeout(timer));
  }

  it.each([
    ['without a timeout', undefined],
    ['with a timeout', 30_000],
  ])('lets a running job finish and returns, %s', async (label, timeout) => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let running = false;
    let finished = 0;
    const jobs = await worker(`drain-running-${label}`, async () => {
      running = true;
      await released;
      finished++;
    });
    await jobs.now('drain.a', {});
    while (!running) await new Promise((r) => setTimeout(r, 10));

    const drained = jobs.drain(timeout);
    release();
    // Not by running out its 30 s, nor hanging: the job left the list a database round trip after its event.
    expect(await within20s(drained)).toMatchObject({ completed: 1, running: 0, timedOut: false, aborted: false });
    expect(finished).toBe(1);
  }, 60_000);

  it('returns for a job between its complete event and leaving the running list', async () => {
    let ran = 0;
    const jobs = await worker('drain-complete', async () => void ran++);
    // The listener runs inside Agenda's emit, before the job's removal and its leaving the list.
    const drained = new Promise<unknown>((resolve) => jobs.once('complete', () => resolve(jobs.drain())));
    await jobs.now('drain.a', {});

    expect(await within20s(drained)).toMatchObject({ running: 0, timedOut: false, aborted: false });
    expect(ran).toBe(1);
  }, 60_000);

  it("still ends early on the caller's abort signal", async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let running = false;
    const jobs = await worker('drain-abort', async () => {
      running = true;
      await released;
    });
    await jobs.now('drain.a', {});
    while (!running) await new Promise((r) => setTimeout(r, 10));

    const abort = new AbortController();
    const drained = jobs.drain({ signal: abort.signal });
    abort.abort();
    expect(await within20s(drained)).toMatchObject({ running: 1, aborted: true });
    release();
  }, 60_000);
});
