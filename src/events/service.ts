// Publishing events: store, then hand to in-process subscribers. Domains emit; webhooks subscribes.
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../clock.ts';
import { newId } from '../clock.ts';
import { EventModel, type EventType, type StoredEvent } from './model.ts';
import { trusted } from '../db/connection.ts';

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
  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** Stores the event and dispatches it. A failed dispatch is logged; the sweeper retries it. */
  async emit(input: EventInput): Promise<StoredEvent> {
    const doc = await EventModel.create({ ...input, id: newId(), createdAt: this.clock.now() });
    const event = doc.toObject() as StoredEvent;
    await this.dispatch(event);
    return event;
  }

  async dispatch(event: StoredEvent): Promise<boolean> {
    try {
      for (const subscriber of this.subscribers) await subscriber(event);
      // By `_id`: FerretDB v1 looks up nothing else without a scan (docs/FERRETDB.md).
      await EventModel.updateOne({ _id: event._id }, { $set: { dispatchedAt: this.clock.now() } });
      return true;
    } catch (err) {
      this.logger.error({ err, eventId: event.id, type: event.type }, 'event dispatch failed; the sweeper will retry');
      return false;
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
