// Publishing events: store, then hand to in-process subscribers. Domains emit; webhooks subscribes.
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../clock.ts';
import { timeOrderedId } from '../clock.ts';
import { EventDispatchFailureModel, EventModel, UndispatchedEventModel, type EventType, type StoredEvent } from './model.ts';
import { isTransientDatabaseError } from '../db/errors.ts';
import { trusted } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { GroupInsert } from '../db/groupInsert.ts';
import { insertNew } from '../db/insertNew.ts';

/** Sweeps that may fail to dispatch one event (the database being away aside) before it is given up. */
export const MAX_SWEEP_TRIES = 5;

export type EventSubscriber = (event: StoredEvent) => Promise<void>;
/**
 * Told when the sweep gives an event up, with the last error: it records what the event's loss
 * means where an operator looks (the webhooks: a failed delivery per hook). Throws when it could not.
 */
export type AbandonRecorder = (event: StoredEvent, reason: string) => Promise<void>;

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
  private readonly recorders: AbandonRecorder[] = [];
  /**
   * Outbox rows of dispatched events are deleted in batches after the fact: one deleted late or
   * never only makes the sweeper dispatch the event again, which creates nothing twice (fan-out is
   * idempotent).
   */
  private readonly done: SerialBatcher<string>;
  /** Events emitted together go into the outbox in one insert (a group commit); each emit waits for its own. */
  private readonly outbox = new GroupInsert(UndispatchedEventModel.collection);
  /** And into the events likewise. */
  private readonly inserts = new GroupInsert(EventModel.collection);
  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.done = new SerialBatcher(256, (ids) => this.leaveOutbox(ids));
  }

  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** An event is given up only once every recorder has recorded it. */
  onAbandon(recorder: AbandonRecorder): void {
    this.recorders.push(recorder);
  }

  /** Stores the event (in the outbox) and dispatches it. A failed dispatch is logged; the sweeper retries it. */
  async emit(input: EventInput): Promise<StoredEvent> {
    // Time-ordered: rows keyed by the event id then add to the end of their index, which made the
    // webhook burst about 18 % faster on FerretDB (docs/BENCHMARKS.md).
    const doc = new EventModel({ ...input, id: timeOrderedId(), createdAt: this.clock.now() });
    // Validated and cast here, once: the group commit writes the plain document.
    await doc.validate();
    const event = doc.toObject() as StoredEvent;
    // The outbox row first: from then on a crash leaves it for the sweep. The event's own row and
    // the dispatch then go at once, so an emit waits for as many commits in a row as it did before
    // the outbox (a row before the event cut the webhook burst by a third).
    // A fresh id never exists already; false here would mean a broken id generator.
    if (!(await this.outbox.insert({ _id: event.id, at: event.createdAt, event }))) throw new Error(`event id ${doc.id} exists already`);
    const [stored, dispatched] = await Promise.all([this.inserts.insert(event), this.dispatchOrError(event)]);
    if (!stored) throw new Error(`event id ${doc.id} exists already`);
    if (dispatched === null) this.done.add(event.id);
    return event;
  }

  /** Hands a stored event to the subscribers again (its fan-out creates nothing twice). */
  async dispatch(event: StoredEvent): Promise<boolean> {
    return (await this.dispatchOrError(event)) === null;
  }

  /** Null when every subscriber took the event, else the error (logged). */
  private async dispatchOrError(event: StoredEvent): Promise<unknown> {
    try {
      for (const subscriber of this.subscribers) await subscriber(event);
      return null;
    } catch (err) {
      this.logger.error({ err, eventId: event.id, type: event.type }, 'event dispatch failed; the sweeper will retry');
      return err;
    }
  }

  /** Resolves once every dispatched event's outbox row so far is deleted (shutdown, tests). */
  flush(): Promise<void> {
    return this.done.drained();
  }

  private async leaveOutbox(ids: string[]): Promise<void> {
    try {
      await UndispatchedEventModel.deleteMany({ _id: trusted({ $in: ids }) });
    } catch (err) {
      this.logger.warn({ err, events: ids.length }, 'dispatched events stay in the outbox; the sweeper will dispatch them again');
    }
  }

  /**
   * Re-dispatches events whose dispatch never finished (a crash between store and fan-out, or a
   * failed fan-out): those in the outbox since before the grace period. An event that fails in
   * MAX_SWEEP_TRIES runs for a reason other than the database is given up (it leaves the outbox)
   * once the recorders have recorded it.
   */
  async redispatchStale(olderThanMs: number, batch = 1_000): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    const waiting = await UndispatchedEventModel.find({ at: trusted({ $lt: cutoff }) })
      .sort({ at: 1 })
      .limit(batch)
      .lean<Array<{ event: StoredEvent }>>();
    if (!waiting.length) return 0;
    // Stored already unless the process died between the outbox and the event's row.
    await insertNew(EventModel.collection, waiting.map((w) => w.event));
    let dispatched = 0;
    for (const { event } of waiting) {
      const err = await this.dispatchOrError(event);
      if (err === null) dispatched++;
      if (err === null || (await this.givenUp(event, err))) this.done.add(event.id);
    }
    return dispatched;
  }

  /**
   * Counts a failed sweep of the event; true once it has failed too often to hold the sweep back
   * and its loss is recorded (the recorders): an event is never given up with nothing recorded.
   */
  private async givenUp(event: StoredEvent, err: unknown): Promise<boolean> {
    // The database being away says nothing about the event: it is tried again without counting.
    if (isTransientDatabaseError(err)) return false;
    const now = this.clock.now();
    const lastError = String(err instanceof Error ? err.message : err).slice(0, 1000);
    const failure = await EventDispatchFailureModel.findOneAndUpdate(
      { _id: event.id },
      { $inc: { tries: 1 }, $set: { lastError, lastAt: now } },
      { upsert: true, returnDocument: 'after' },
    ).lean<{ tries: number }>();
    if (failure!.tries < MAX_SWEEP_TRIES) return false;
    try {
      for (const record of this.recorders) await record(event, lastError);
    } catch (recordErr) {
      this.logger.error({ err: recordErr, eventId: event.id, type: event.type, tries: failure!.tries }, 'event dispatch failed and its loss could not be recorded; the sweep tries again');
      return false;
    }
    await EventDispatchFailureModel.updateOne({ _id: event.id }, { $set: { abandonedAt: now } });
    this.logger.error({ eventId: event.id, type: event.type, tries: failure!.tries }, 'event dispatch given up; each hook it was for has a failed delivery (dispatch_abandoned)');
    return true;
  }
}
