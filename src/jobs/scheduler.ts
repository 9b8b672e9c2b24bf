// Agenda v6 on the shared MongoDB connection. Every role creates it (the api role enqueues);
// only worker and all roles start processing.
import { Agenda, InMemoryNotificationChannel } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Collection, Db } from 'mongodb';
import type { Config } from '../config.ts';

export type Scheduler = Agenda;

const DEFAULT_CONCURRENCY = 10;

export function createScheduler(db: Db, config: Config, name = `relay-${process.pid}`): Scheduler {
  const backend = new MongoBackend({ mongo: db as never, collection: 'agendaJobs' });
  serialiseJobLocking(backend);
  const agenda = new Agenda({
    backend,
    name,
    processEvery: config.JOB_PROCESS_EVERY_MS,
    maxConcurrency: config.JOB_MAX_CONCURRENCY,
    // No more jobs locked than can run (see lockNoMoreThanCanRun).
    lockLimit: config.JOB_MAX_CONCURRENCY,
    defaultConcurrency: DEFAULT_CONCURRENCY,
    defaultLockLifetime: config.JOB_LOCK_LIFETIME_MS,
    // A one-time job that succeeded is deleted: Agenda's lock query reads every job of its name on
    // FerretDB v1, so kept jobs made each lock cost ~0.4 ms per job ever run (20,000 gateway
    // batches: 6-10 s a lock). Their work is recorded by the domain's own rows, not by the job.
    removeOnComplete: true,
    // Jobs enqueued by this process start at once instead of waiting for the next poll;
    // other processes still find them by polling every JOB_PROCESS_EVERY_MS.
    notificationChannel: new InMemoryNotificationChannel(),
  });
  lockNoMoreThanCanRun(agenda);
  giveBackExpiredLocks(agenda);
  drainEndsWhenLastJobLeaves(agenda);
  pollOnlyNamesDue(agenda, db.collection('agendaJobs'), config.JOB_PROCESS_EVERY_MS);
  return agenda;
}

/**
 * How often the sweeps that hand over work a dead process left (webhooks, gateway, events) run.
 * With the default 30 s job lock and their grace of twice that, what a killed process held is sent
 * again within 75 s (docs/DEPLOY.md, "Recovery after a crash"). Each sweep reads only unfinished
 * work (1-25 ms), so running them four times a minute costs little.
 */
export const SWEEP_INTERVAL = '15 seconds';

/**
 * Declares a recurring job without moving an existing schedule. Agenda's `every()` recomputes the
 * next run from now on each call (docs/FERRETDB.md), so a worker restarted more often than the
 * interval would push the run back every time and it would never come. An existing job with the
 * same interval keeps its next run, overdue or not; a new one, or one whose interval changed, is
 * declared with its first run one interval out.
 */
export async function ensureRecurring(jobs: Scheduler, interval: string, name: string, data: unknown = {}): Promise<void> {
  const { jobs: found } = await jobs.queryJobs({ name });
  const current = found.find((j) => j.type === 'single');
  if (current && current.repeatInterval === interval && current.nextRunAt && !current.disabled) return;
  await jobs.every(interval, name, data, { skipImmediate: true });
}

type Define = (name: string, processor: unknown, options?: { concurrency?: number; lockLimit?: number }) => void;

/**
 * Agenda locks every due job it finds (no lock limit by default), though it runs only
 * `concurrency` of a name at once. Under a backlog the rest wait in memory while their lock
 * lifetime runs out; they are then never started here, and the next poll locks them again (a
 * second copy of the same job). Each job name is therefore limited to as many locked jobs as it
 * may run at once (and the process to JOB_MAX_CONCURRENCY, its total), so a locked job starts at
 * once; a name at its limit also sends no lock query until one of its jobs finishes.
 */
function lockNoMoreThanCanRun(agenda: Agenda): void {
  const define = agenda.define.bind(agenda) as Define;
  (agenda as unknown as { define: Define }).define = (name, processor, options) =>
    define(name, processor, { ...options, lockLimit: options?.lockLimit ?? options?.concurrency ?? DEFAULT_CONCURRENCY });
}

interface LocalJob {
  attrs: { name: string };
  isExpired(): Promise<boolean>;
}

/** Agenda's JobProcessor (agenda 6.2.6, dist/JobProcessor.js): the members used below. */
interface JobProcessor {
  lockedJobs: LocalJob[];
  runningJobs: LocalJob[];
  enqueueJob(job: LocalJob): void;
  updateStatus(name: string, key: 'locked', change: -1): void;
}

/**
 * Agenda 6.2.6 drops a queued job whose lock ran out before it started (`jobProcessing`, the
 * `isExpired()` branch) but leaves it in `lockedJobs` and in its name's locked count, so with the
 * lock limits above each such job lowers its name's limit in this process by one until a restart
 * (docs/FERRETDB.md). Agenda asks a job `isExpired()` only there and, while the job runs, in its
 * lock check, whose end gives the count back itself; so an expired answer for a locked job that is
 * not running is the drop, and the count is given back here. The database lock has already run out
 * and is left alone: another process may hold the job by now.
 */
function giveBackExpiredLocks(agenda: Agenda): void {
  patchEachProcessor<JobProcessor>(agenda, (processor) => {
    const watched = new WeakSet<LocalJob>();
    const enqueue = processor.enqueueJob.bind(processor);
    processor.enqueueJob = (job) => {
      if (!watched.has(job)) {
        watched.add(job);
        giveBackLockWhenDropped(processor, job);
      }
      enqueue(job);
    };
  });
}

/**
 * Runs `patch` once on each job processor Agenda creates, right after start() creates it: its first
 * lock queries are still in flight, so every job it locks passes the patch. A drain ends a
 * processor; the next start() creates another.
 */
function patchEachProcessor<P extends object>(agenda: Agenda, patch: (processor: P) => void): void {
  const patched = new WeakSet<object>();
  const start = agenda.start.bind(agenda);
  agenda.start = async () => {
    await start();
    const processor = (agenda as unknown as { jobProcessor?: P }).jobProcessor;
    if (!processor || patched.has(processor)) return;
    patched.add(processor);
    patch(processor);
  };
}

function giveBackLockWhenDropped(processor: JobProcessor, job: LocalJob): void {
  const isExpired = job.isExpired.bind(job);
  job.isExpired = async () => {
    const expired = await isExpired();
    const index = processor.lockedJobs.indexOf(job);
    if (expired && index !== -1 && !processor.runningJobs.includes(job)) {
      processor.lockedJobs.splice(index, 1);
      processor.updateStatus(job.attrs.name, 'locked', -1);
    }
    return expired;
  };
}

type DrainOptions = { timeout?: number; signal?: AbortSignal };
type DrainResult = { completed: number; running: number; timedOut: boolean; aborted: boolean };

/** Agenda's JobProcessor (agenda 6.2.6, dist/JobProcessor.js): what a drain uses. */
interface DrainingProcessor {
  runningJobs: LocalJob[];
  drain(options?: number | DrainOptions): Promise<DrainResult>;
  updateStatus(name: string, key: string, change: number): void;
}

/**
 * Agenda 6.2.6's drain() checks for an empty running list on each `complete` event, but a job
 * emits `complete` before removeOnComplete's delete and leaves the list only after it, a database
 * round trip later. So a drain with jobs running never saw the list empty: a shutdown waited out
 * its 25 s, and a drain without a timeout never returned (test/jobs/drain.test.ts). A drain here
 * also ends when the last running job leaves the list, through the abort signal drain() takes.
 */
function drainEndsWhenLastJobLeaves(agenda: Agenda): void {
  patchEachProcessor<DrainingProcessor>(agenda, (processor) => {
    let allLeft: AbortController | undefined;
    const updateStatus = processor.updateStatus.bind(processor);
    // Called with ('running', -1) right after a job left the running list.
    processor.updateStatus = (name, key, change) => {
      updateStatus(name, key, change);
      if (key === 'running' && processor.runningJobs.length === 0) allLeft?.abort();
    };
    const drain = processor.drain.bind(processor);
    processor.drain = async (options) => {
      const opts: DrainOptions = typeof options === 'number' ? { timeout: options } : { ...options };
      const ours = new AbortController();
      allLeft = ours;
      try {
        const result = await drain({ ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, ours.signal]) : ours.signal });
        // Aborted by the last job leaving, not by the caller: a drain that completed.
        return ours.signal.aborted && !opts.signal?.aborted ? { ...result, running: 0, aborted: false } : result;
      } finally {
        if (allLeft === ours) allLeft = undefined;
      }
    };
  });
}

/** Agenda's JobProcessor (agenda 6.2.6, dist/JobProcessor.js): what a poll uses. */
interface PollingProcessor {
  isRunning: boolean;
  nextScanAt: Date;
  process(): Promise<void>;
  jobQueueFilling(name: string): Promise<void>;
  jobProcessing(): void;
}

/**
 * Agenda's poll (JobProcessor.process, every JOB_PROCESS_EVERY_MS) sends one lock query per defined
 * job name, a findAndModify, whether or not anything is due: on FerretDB each costs ~0.45 ms of its
 * CPU and about as much of ours, so ten names polled each second cost ~10 ms/s of each, idle or
 * not (docs/BENCHMARKS.md). A poll here first asks once which names have a job one of
 * their lock queries could take (the query Agenda locks with, with the shortest lock lifetime of
 * any name), and sends lock queries for those names only. Other processes' jobs and scheduled ones
 * are found by the same poll as before; jobs enqueued here still start at once (a notification
 * sends its lock query itself). If the question fails, the poll is Agenda's own.
 */
function pollOnlyNamesDue(agenda: Agenda, jobs: Collection, processEveryMs: number): void {
  patchEachProcessor<PollingProcessor>(agenda, (processor) => {
    const poll = processor.process.bind(processor);
    // When the question was sent, while it has not answered: polls come every interval whether or
    // not the last has answered, and must not pile up in the pool behind a stalled database (see
    // serialiseJobLocking); one unanswered past LOCK_WAIT_BOUND_MS no longer holds the next back.
    let askedAt = 0;
    processor.process = async () => {
      const definitions = (agenda as unknown as { definitions: Record<string, { lockLifetime: number }> }).definitions;
      const lifetimes = Object.values(definitions).map((d) => d.lockLifetime);
      if (!processor.isRunning || lifetimes.length === 0) return poll();
      const now = Date.now();
      if (askedAt && now - askedAt < LOCK_WAIT_BOUND_MS) return;
      // Agenda moves this forward with every lock query; a notification of a job due after it is
      // left to the next poll, so a poll that sends none must move it too.
      processor.nextScanAt = new Date(now + processEveryMs);
      askedAt = now;
      let due: unknown[];
      try {
        due = await namesDue(jobs, processor.nextScanAt, new Date(now - Math.min(...lifetimes)));
      } catch {
        return poll();
      } finally {
        if (askedAt === now) askedAt = 0;
      }
      await Promise.all(due.filter((name): name is string => typeof name === 'string' && name in definitions).map((name) => processor.jobQueueFilling(name)));
      processor.jobProcessing();
    };
  });
}

/** The names with a job Agenda's lock query (MongoJobRepository.getNextJobToRun) could take: due by `scanUntil`, or locked before `lockDeadline`. */
function namesDue(jobs: Collection, scanUntil: Date, lockDeadline: Date): Promise<unknown[]> {
  return jobs.distinct('name', {
    disabled: { $ne: true },
    $or: [{ lockedAt: { $eq: null }, nextRunAt: { $lte: scanUntil } }, { lockedAt: { $lte: lockDeadline } }],
  });
}

type LockNext = (jobName: string, ...rest: unknown[]) => Promise<unknown>;

/** A lock query older than this no longer holds back the next one (see serialiseJobLocking). */
const LOCK_WAIT_BOUND_MS = 15_000;

/**
 * Lock attempts for one job name run one at a time inside the process. Written first because
 * FerretDB v1 ran Agenda's conditional `findOneAndUpdate` lock non-atomically (81 of 100 `now()`
 * jobs ran twice); the embedded FerretDB's patch now makes it atomic (docs/FERRETDB.md). What keeps
 * this chain is the bound below.
 *
 * At most one attempt waits behind the one in flight for a name; any further one finds nothing to
 * lock, and the next poll tries again. Agenda polls every name every
 * JOB_PROCESS_EVERY_MS whether or not the last poll's queries have answered; queued attempts grew
 * without bound whenever a lock query took longer than that (after a database outage, under a
 * backlog), until lock queries filled the connection pool and every job's own queries waited
 * minutes behind them (docs/FERRETDB.md, "Recovering from an outage under load").
 */
function serialiseJobLocking(backend: MongoBackend): void {
  const repository = backend.repository as unknown as { getNextJobToRun: LockNext };
  const lockNext = repository.getNextJobToRun.bind(repository);
  const inFlight = new Map<string, { startedAt: number; settled: Promise<unknown> }>();
  const waiting = new Set<string>();
  // One lock query that never settles (a connection lost in an outage) must not stop this job
  // name for good: after the bound, the next attempt goes ahead.
  const blocking = (jobName: string) => {
    const current = inFlight.get(jobName);
    return current && Date.now() - current.startedAt < LOCK_WAIT_BOUND_MS ? current : undefined;
  };
  repository.getNextJobToRun = async (jobName, ...rest) => {
    if (blocking(jobName)) {
      // One attempt may wait for the running one (a job just enqueued here starts without waiting
      // for the next poll); it will find whatever a further attempt would, so those find nothing.
      if (waiting.has(jobName)) return undefined;
      waiting.add(jobName);
      try {
        for (let current = blocking(jobName); current; current = blocking(jobName)) {
          let timer: NodeJS.Timeout | undefined;
          const bound = new Promise((r) => (timer = setTimeout(r, LOCK_WAIT_BOUND_MS - (Date.now() - current!.startedAt)).unref()));
          await Promise.race([current.settled, bound]).finally(() => clearTimeout(timer));
        }
      } finally {
        waiting.delete(jobName);
      }
    }
    const startedAt = Date.now();
    const settled = lockNext(jobName, ...rest);
    const entry = { startedAt, settled: settled.catch(() => undefined) };
    inFlight.set(jobName, entry);
    try {
      return await settled;
    } finally {
      if (inFlight.get(jobName) === entry) inFlight.delete(jobName);
    }
  };
}
