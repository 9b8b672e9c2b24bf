// Publishing events: store, then hand to in-process subscribers. Domains emit; webhooks subscribes.
import type { Model } from 'mongoose';
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../clock.ts';
import { timeOrderedId } from '../clock.ts';
import { EventDispatchFailureModel, EventDispatchModel, EventModel, type EventType, type StoredEvent } from './model.ts';
import { isTransientDatabaseError } from '../db/errors.ts';
import { trusted } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { GroupInsert } from '../db/groupInsert.ts';
import { insertNew } from '../db/insertNew.ts';
import { sweepWindow } from '../db/sweepWindow.ts';

const DISPATCH_MARK = 'events.dispatch';
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
   * Dispatched marks are written in batches after the fact: a mark that is late or lost only
   * makes the sweeper dispatch the event again, which creates nothing twice (fan-out is idempotent).
   */
  private readonly marks: SerialBatcher<{ _id: string; at: Date }>;
  /** Events emitted together are stored in one insert (a group commit); each emit waits for its own. */
  private readonly inserts = new GroupInsert(EventModel.collection);
  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.marks = new SerialBatcher(256, (marks) => this.writeMarks(marks));
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
    // A fresh id never exists already; false here would mean a broken id generator.
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
      this.marks.add({ _id: event.id, at: this.clock.now() });
      return null;
    } catch (err) {
      this.logger.error({ err, eventId: event.id, type: event.type }, 'event dispatch failed; the sweeper will retry');
      return err;
    }
  }

  /** Resolves once every dispatched mark so far is written (shutdown, tests). */
  flush(): Promise<void> {
    return this.marks.drained();
  }

  private async writeMarks(marks: Array<{ _id: string; at: Date }>): Promise<void> {
    try {
      // A mark that exists already (an event dispatched twice) is left as it is.
      await insertNew(EventDispatchModel.collection, marks);
    } catch (err) {
      this.logger.warn({ err, events: marks.length }, 'events could not be marked dispatched; the sweeper will dispatch them again');
    }
  }

  /**
   * Re-dispatches events whose dispatch never finished (crash between store and fan-out): those
   * created since the last run and before the grace period without a dispatch row. The mark stops
   * before the first event whose dispatch fails again, so the next run tries it once more; one
   * that fails in MAX_SWEEP_TRIES runs for a reason other than the database is given up.
   */
  async redispatchStale(olderThanMs: number, batch = 1_000): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    const { rows: events, advance } = await sweepWindow<StoredEvent>(EventModel as unknown as Model<StoredEvent>, DISPATCH_MARK, { dispatchedAt: null }, cutoff, batch);
    let done = 0;
    let firstFailed: number | undefined;
    if (events.length) {
      // The rows between the window's least and greatest event id hold every row of the window, and
      // little else since event ids are UUIDv7 (older v4 ids only widen the range). An `at` range
      // would return every later row too, a whole backlog's after an outage; `$in` of the ids costs
      // twice as much on FerretDB, which scans either way (docs/FERRETDB.md).
      const ids = events.map((e) => e.id).sort();
      const marked = await EventDispatchModel.find({ _id: trusted({ $gte: ids[0]!, $lte: ids.at(-1)! }) }, { _id: 1 }).lean<Array<{ _id: string }>>();
      const dispatched = new Set(marked.map((m) => m._id));
      for (const [i, event] of events.entries()) {
        if (dispatched.has(event.id)) continue;
        const err = await this.dispatchOrError(event);
        if (err === null) done++;
        else if (!(await this.givenUp(event, err))) firstFailed ??= i;
      }
    }
    await advance(firstFailed);
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
