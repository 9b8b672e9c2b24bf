// Agenda v6 on the shared MongoDB connection. Every role creates it (the api role enqueues);
// only worker and all roles start processing.
import { Agenda, InMemoryNotificationChannel } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Db } from 'mongodb';
import type { Config } from '../config.ts';

export type Scheduler = Agenda;

export function createScheduler(db: Db, config: Config, name = `relay-${process.pid}`): Scheduler {
  const backend = new MongoBackend({ mongo: db as never, collection: 'agendaJobs' });
  serialiseJobLocking(backend);
  return new Agenda({
    backend,
    name,
    processEvery: config.JOB_PROCESS_EVERY_MS,
    maxConcurrency: config.JOB_MAX_CONCURRENCY,
    defaultConcurrency: 10,
    defaultLockLifetime: config.JOB_LOCK_LIFETIME_MS,
    // Jobs enqueued by this process start at once instead of waiting for the next poll;
    // other processes still find them by polling every JOB_PROCESS_EVERY_MS.
    notificationChannel: new InMemoryNotificationChannel(),
  });
}

type LockNext = (jobName: string, ...rest: unknown[]) => Promise<unknown>;

const LOCK_WAIT_BOUND_MS = 15_000;

/**
 * Agenda locks a job with one conditional `findOneAndUpdate`, which FerretDB v1 does not run
 * atomically (docs/FERRETDB.md). The notification-triggered fill and the interval scan of one
 * process then lock the same job together: 81 of 100 `now()` jobs ran twice in the reproduction.
 * Lock attempts for one job name therefore run one at a time inside the process. Across processes
 * the race remains on FerretDB, which is why every job also claims its work by a unique insert.
 */
function serialiseJobLocking(backend: MongoBackend): void {
  const repository = backend.repository as unknown as { getNextJobToRun: LockNext };
  const lockNext = repository.getNextJobToRun.bind(repository);
  const tails = new Map<string, Promise<unknown>>();
  repository.getNextJobToRun = (jobName, ...rest) => {
    const attempt = (tails.get(jobName) ?? Promise.resolve()).then(() => lockNext(jobName, ...rest));
    // The next attempt waits for this one, but not forever: one lock query that never settles
    // (a connection lost in a database outage) must not stop this job name for good.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise((r) => (timer = setTimeout(r, LOCK_WAIT_BOUND_MS).unref()));
    // The timer goes as soon as the attempt settles: polls run every few hundred ms.
    const tail = Promise.race([attempt.catch(() => undefined), bound]).finally(() => clearTimeout(timer));
    tails.set(jobName, tail);
    void tail.then(() => {
      if (tails.get(jobName) === tail) tails.delete(jobName);
    });
    return attempt;
  };
}
