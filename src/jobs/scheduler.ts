// Agenda v6 on the shared MongoDB connection. Every role creates it (the api role enqueues);
// only worker and all roles start processing.
import { Agenda, InMemoryNotificationChannel } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Db } from 'mongodb';
import type { Config } from '../config.ts';

export type Scheduler = Agenda;

export function createScheduler(db: Db, config: Config, name = `relay-${process.pid}`): Scheduler {
  return new Agenda({
    backend: new MongoBackend({ mongo: db as never, collection: 'agendaJobs' }),
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
