// Publishing events: store, then hand to in-process subscribers. Domains emit; webhooks subscribes.
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../clock.ts';
import { timeOrderedId } from '../clock.ts';
import { EventDispatchFailureModel, EventModel, UndispatchedEventModel, type EventType, type StoredEvent } from './model.ts';
import { isTransientDatabaseError } from '../db/errors.ts';
import { trusted } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { GroupInsert } from '../db/groupInsert.ts';

/** Sweeps that may fail to dispatch one event (the database being away aside) before it is given up. */
export const MAX_SWEEP_TRIES = 5;

export type EventSubscriber = (event: StoredEvent) => Promise<void>;

export interface EventInput {
  type: EventType;
  teamId: string;
  botId: string;
  dataSourceId?: string | null;
  conversationId?: string | null;
  payload: Record<string, unknown>;
}

export class EventBus {
  private readonly subscribers: EventSubscriber[] = [];
  /**
   * Records of dispatched events are deleted in batches after the fact: one deleted late or never
   * only makes the sweeper dispatch the event again, which creates nothing twice (fan-out is idempotent).
   */
  private readonly dispatched: SerialBatcher<string>;
  /** Events emitted together are stored in one insert (a group commit); each emit waits for its own. */
  private readonly inserts = new GroupInsert(EventModel.collection);
  /** Their records of unfinished dispatch, likewise. */
  private readonly undispatched = new GroupInsert(UndispatchedEventModel.collection);
  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.dispatched = new SerialBatcher(256, (ids) => this.deleteRecords(ids));
  }

  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** Stores the event and dispatches it. A failed dispatch is logged; the sweeper retries it. */
  async emit(input: EventInput): Promise<StoredEvent> {
    // Time-ordered: each dispatch row (`_id` = event id) then adds to the end of its index, which
    // made the webhook burst about 18 % faster on FerretDB (docs/BENCHMARKS.md, session 17).
    const doc = new EventModel({ ...input, id: timeOrderedId(), createdAt: this.clock.now() });
    // Validated and cast here, once: the group commit writes the plain document.
    await doc.validate();
    const event = doc.toObject() as StoredEvent;
    // The record first: a crash after it and before the event leaves a record the sweep drops; the
    // other order could leave an event that nothing would ever dispatch.
    // A fresh id never exists already; false here would mean a broken id generator.
    if (!(await this.undispatched.insert({ _id: event.id, at: event.createdAt }))) throw new Error(`event id ${doc.id} exists already`);
    if (!(await this.inserts.insert(event))) throw new Error(`event id ${doc.id} exists already`);
    await this.dispatch(event);
    return event;
  }

  async dispatch(event: StoredEvent): Promise<boolean> {
    return (await this.dispatchOrError(event)) === null;
  }

  /** Null when every subscriber took the event, else the error (logged). */
  private async dispatchOrError(event: StoredEvent): Promise<unknown> {
    try {
      for (const subscriber of this.subscribers) await subscriber(event);
      this.dispatched.add(event.id);
      return null;
    } catch (err) {
      this.logger.error({ err, eventId: event.id, type: event.type }, 'event dispatch failed; the sweeper will retry');
      return err;
    }
  }

  /** Resolves once every dispatched event's record so far is deleted (shutdown, tests). */
  flush(): Promise<void> {
    return this.dispatched.drained();
  }

  private async deleteRecords(ids: string[]): Promise<void> {
    try {
      await UndispatchedEventModel.deleteMany({ _id: trusted({ $in: ids }) });
    } catch (err) {
      this.logger.warn({ err, events: ids.length }, 'dispatched events kept their records; the sweeper will dispatch them again');
    }
  }

  /**
   * Re-dispatches events whose dispatch never finished (a crash between store and fan-out, or a
   * failed fan-out): those with a record older than the grace period. A record whose event was
   * never stored (a crash between the two inserts) is dropped. An event that fails in
   * MAX_SWEEP_TRIES runs for a reason other than the database is given up (its record dropped).
   */
  async redispatchStale(olderThanMs: number, batch = 1_000): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    const records = await UndispatchedEventModel.find({ at: trusted({ $lt: cutoff }) }, { _id: 1 })
      .sort({ at: 1 })
      .limit(batch)
      .lean<Array<{ _id: string }>>();
    if (!records.length) return 0;
    const ids = records.map((r) => r._id);
    const events = new Map((await EventModel.find({ id: trusted({ $in: ids }) }).lean<StoredEvent[]>()).map((e) => [e.id, e]));
    let done = 0;
    const dropped: string[] = [];
    for (const id of ids) {
      const event = events.get(id);
      // Never stored, or stored by a release that marked dispatches on the event itself.
      if (!event || event.dispatchedAt) {
        dropped.push(id);
        continue;
      }
      const err = await this.dispatchOrError(event);
      if (err === null) done++;
      else if (await this.givenUp(event, err)) dropped.push(id);
    }
    if (dropped.length) await UndispatchedEventModel.deleteMany({ _id: trusted({ $in: dropped }) });
    return done;
  }

  /** Counts a failed sweep of the event; true once it has failed too often to hold the sweep back. */
  private async givenUp(event: StoredEvent, err: unknown): Promise<boolean> {
    // The database being away says nothing about the event: it is tried again without counting.
    if (isTransientDatabaseError(err)) return false;
    const now = this.clock.now();
    const failure = await EventDispatchFailureModel.findOneAndUpdate(
      { _id: event.id },
      { $inc: { tries: 1 }, $set: { lastError: String(err instanceof Error ? err.message : err).slice(0, 1000), lastAt: now } },
      { upsert: true, new: true },
    ).lean<{ tries: number }>();
    if (failure!.tries < MAX_SWEEP_TRIES) return false;
    await EventDispatchFailureModel.updateOne({ _id: event.id }, { $set: { abandonedAt: now } });
    this.logger.error({ eventId: event.id, type: event.type, tries: failure!.tries }, 'event dispatch given up: its webhook deliveries were never created');
    return true;
  }
}
