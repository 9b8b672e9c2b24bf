// A worker's poll sends lock queries only for job names with something to take, and still finds
// what another process enqueued, scheduled jobs at their time, jobs whose lock ran out, and starts
// its own jobs at once (jobs/scheduler.ts, pollOnlyNamesDue).
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.ts';
import { testConfig, useTestRuntime, waitFor } from '../helpers/harness.ts';

const NAMES = ['polling.a', 'polling.b', 'polling.c'];

describe('job polling', () => {
  // The database only: the schedulers below are this file's own.
  const rt = useTestRuntime({ worker: false });
  const clients: MongoClient[] = [];
  const started: Scheduler[] = [];
  const commands: CommandStartedEvent[] = [];
  const runs: Array<{ name: string; data: unknown }> = [];
  let enqueuer: Scheduler;

  /** A scheduler on a client of its own; the worker's commands are recorded. */
  async function scheduler(name: string, env: Record<string, string>, record = false): Promise<Scheduler> {
    const url = new URL(rt.uri);
    if (record) url.searchParams.set('monitorCommands', 'true');
    const client = await MongoClient.connect(url.toString());
    clients.push(client);
    if (record) client.on('commandStarted', (e) => commands.push(e));
    const jobs = createScheduler(client.db(), testConfig(env, rt.uri), name);
    for (const job of NAMES) jobs.define(job, async (j) => void runs.push({ name: job, data: j.attrs.data }));
    await jobs.ready;
    return jobs;
  }
  const lockQueries = (name?: string) => commands.filter((c) => c.commandName === 'findAndModify' && (name === undefined || JSON.stringify(c.command.query).includes(`"${name}"`))).length;
  const polls = () => commands.filter((c) => c.commandName === 'distinct').length;

  beforeAll(async () => {
    // Another process that only enqueues: its jobs reach the worker through the database alone.
    enqueuer = await scheduler('enqueuer', {});
  });
  afterAll(async () => {
    for (const jobs of started) await jobs.drain(5_000);
    for (const client of clients) await client.close();
  });

  it('sends no lock query while nothing is due, one question per poll instead', async () => {
    const worker = await scheduler('poller', { JOB_PROCESS_EVERY_MS: '100' }, true);
    started.push(worker);
    await worker.start();
    // The first poll at start is Agenda's own (one lock query per name); the rest are this file's subject.
    await waitFor(() => polls() >= 1);
    const from = { polls: polls(), lockQueries: lockQueries() };
    await waitFor(() => polls() >= from.polls + 5);
    // Agenda's own polls would have sent one per name each: 15 or more.
    expect(lockQueries()).toBe(from.lockQueries);
  });

  it("takes another process's job, a scheduled job at its time and a job whose lock ran out, with lock queries for their names only", async () => {
    commands.length = 0;
    await enqueuer.now('polling.a', { n: 1 });
    await enqueuer.schedule(new Date(Date.now() + 300), 'polling.b', { n: 2 });
    // Locked by a worker that died ten minutes ago (lock lifetime 60 s).
    const past = new Date(Date.now() - 600_000);
    await clients[0]!.db().collection('agendaJobs').insertOne({ name: 'polling.b', type: 'normal', priority: 0, data: { n: 3 }, nextRunAt: past, lockedAt: past, lastModifiedBy: 'dead-worker' });
    await waitFor(() => runs.length >= 3);
    expect(runs.map((r) => r.data).sort((x, y) => (x as { n: number }).n - (y as { n: number }).n)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(lockQueries('polling.a')).toBeGreaterThan(0);
    expect(lockQueries('polling.b')).toBeGreaterThan(0);
    expect(lockQueries('polling.c')).toBe(0);
    // The next test's job must be started by its own worker.
    await started.pop()!.drain();
  });

  it('starts a job enqueued in the process at once, not at the next poll', async () => {
    commands.length = 0;
    // Polls 2 s apart: the job below must not wait for one. Agenda leaves a notification of a job
    // due after its scan time to the next poll, and moves that time with each lock query, so polls
    // that send none must move it too.
    const worker = await scheduler('notified', { JOB_PROCESS_EVERY_MS: '2000' }, true);
    started.push(worker);
    await worker.start();
    // Two polls that locked nothing: the scan time Agenda's own first poll set is 2 s behind.
    await waitFor(() => polls() >= 2, 15_000);
    const before = runs.length;
    const pollsBefore = polls();
    await worker.now('polling.c', { n: 4 });
    await waitFor(() => runs.length > before, 15_000);
    expect(runs.at(-1)).toEqual({ name: 'polling.c', data: { n: 4 } });
    expect(polls()).toBe(pollsBefore);
  }, 30_000);
});
