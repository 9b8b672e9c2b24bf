// Publishing events: store, then hand to in-process subscribers. Domains emit; webhooks subscribes.
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../clock.ts';
import { newId } from '../clock.ts';
import { EventModel, type EventType, type StoredEvent } from './model.ts';
import { bulkWriteInBatches, trusted } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { GroupInsert } from '../db/groupInsert.ts';

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
  private readonly marks: SerialBatcher<{ _id: unknown; at: Date }>;
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
    const doc = new EventModel({ ...input, id: newId(), createdAt: this.clock.now() });
    // Validated and cast here, once: the group commit writes the plain document.
    await doc.validate();
    const event = doc.toObject() as StoredEvent;
    // A fresh id never exists already; false here would mean a broken id generator.
    if (!(await this.inserts.insert(event))) throw new Error(`event id ${doc.id} exists already`);
    await this.dispatch(event);
    return event;
  }

  async dispatch(event: StoredEvent): Promise<boolean> {
    try {
      for (const subscriber of this.subscribers) await subscriber(event);
      this.marks.add({ _id: event._id, at: this.clock.now() });
      return true;
    } catch (err) {
      this.logger.error({ err, eventId: event.id, type: event.type }, 'event dispatch failed; the sweeper will retry');
      return false;
    }
  }

  /** Resolves once every dispatched mark so far is written (shutdown, tests). */
  flush(): Promise<void> {
    return this.marks.drained();
  }

  private async writeMarks(marks: Array<{ _id: unknown; at: Date }>): Promise<void> {
    try {
      // By `_id`: FerretDB v1 looks up nothing else without a scan (docs/FERRETDB.md).
      await bulkWriteInBatches(EventModel.collection, marks.map((m) => ({ updateOne: { filter: { _id: m._id }, update: { $set: { dispatchedAt: m.at } } } })));
    } catch (err) {
      this.logger.warn({ err, events: marks.length }, 'events could not be marked dispatched; the sweeper will dispatch them again');
    }
  }

  /** Re-dispatches events whose dispatch never finished (crash between store and fan-out). */
  async redispatchStale(olderThanMs: number): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    const stale = await EventModel.find({ dispatchedAt: null, createdAt: trusted({ $lt: cutoff }) }).limit(100).lean<StoredEvent[]>();
    let done = 0;
    for (const event of stale) if (await this.dispatch(event)) done++;
    return done;
  }
}
