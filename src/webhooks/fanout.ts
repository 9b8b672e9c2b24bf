// Event fan-out (spec "Events"): one Delivery per matching enabled hook of the event's bot, its
// deliveryId and final request bytes fixed here so every retry sends the same thing. Idempotent:
// the unique (eventId, webhookId) index makes a re-dispatched event create nothing new.
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../chat/ids.ts';
import type { StoredEvent } from '../events/model.ts';
import { DeliveryModel, type Delivery, type DeliveryStatus, type Webhook } from './model.ts';
import { insertNew } from '../db/insertNew.ts';
import { buildDeliveryRequest, withDeliveryId, type BuiltRequest } from './request.ts';
import { hooksForEvent } from './service.ts';

/** A delivery just created, with what its first attempt needs to be sent without reading it back. */
export interface FreshDelivery {
  delivery: Delivery;
  secret: string;
}

/** Creates the deliveries of an event in one insert; returns those created by this call that are due. */
export async function fanOut(ctx: Pick<AppContext, 'clock' | 'logger'>, event: StoredEvent, attemptLimit: number): Promise<FreshDelivery[]> {
  const hooks = await hooksForEvent(event);
  if (!hooks.length) return [];
  const docs = hooks.map((hook) => deliveryDocument(ctx, event, hook, timeOrderedId(), attemptLimit));
  // One insertMany, not an upsert per hook: FerretDB v1 writes are slow one by one and under
  // contention, and its $setOnInsert drops empty arrays. An existing one = fanned out before.
  const existed = await insertNew(DeliveryModel, docs);
  return docs.flatMap((delivery, i) => (existed.has(i) || delivery.status !== 'pending' ? [] : [{ delivery: delivery as Delivery, secret: hooks[i]!.secret }]));
}

function deliveryDocument(ctx: Pick<AppContext, 'clock' | 'logger'>, event: StoredEvent, hook: Webhook, id: string, attemptLimit: number) {
  const now = ctx.clock.now();
  const payload = withDeliveryId(event.payload as Record<string, unknown>, id);
  let built: BuiltRequest | null = null;
  let buildError: string | null = null;
  try {
    built = buildDeliveryRequest(hook, payload);
  } catch (err) {
    // Recorded as a failed delivery rather than failing the whole dispatch again and again.
    buildError = `the request could not be built: ${(err as Error).message}`;
    ctx.logger.error({ err, webhookId: hook.id, eventId: event.id }, 'webhook request could not be built');
  }
  return {
    _id: id,
    id,
    eventId: event.id,
    webhookId: hook.id,
    botId: event.botId,
    event: event.type,
    request: built?.request ?? { method: 'POST', url: hook.url, headers: {}, body: '' },
    unresolved: built?.unresolved ?? [],
    status: (built ? 'pending' : 'failed') as DeliveryStatus,
    attemptCount: 0,
    attemptLimit,
    runAfter: 0,
    nextAttemptAt: built ? now : null,
    createdAt: now,
    finishedAt: built ? null : now,
    cancelReason: buildError,
  };
}
