// The gateway's rules of work: store a verified delivery once (source + deliveryId), hand it to
// the process job, list what happened, replay a delivery. Routes, jobs and the CLI call these.
import type { Model } from 'mongoose';
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../clock.ts';
import { AppError } from '../http/errors.ts';
import { pageById, type PageOrder, type PageQuery } from '../http/pagination.ts';
import { gatewayDeliveries } from '../observability/metrics.ts';
import type { IncomingDelivery } from './intake.ts';
import { GatewayDeliveryBodyModel, GatewayDeliveryModel, type GatewayDelivery, type GatewayDeliveryBody } from './model.ts';
import type { RuleInput } from './rules/plan.ts';
import type { GatewayState } from './state.ts';
import { trusted } from '../db/connection.ts';
import { findLean } from '../db/find.ts';
import { outcomesPast, withOutcomes, type DeliveryOutcomes } from './outcomes.ts';
import { PROCESS_JOB, type ProcessJobData } from './queue.ts';

export { PROCESS_JOB, type ProcessItem, type ProcessJobData } from './queue.ts';
export const ACTION_JOB = 'gateway.action';
export const SWEEP_JOB = 'gateway.sweep';

/** The actions one process job planned (outcome ids). */
export interface ActionJobData {
  outcomeIds: string[];
}

/**
 * Stores the first arrival and queues its processing; a later arrival of the same id hits the
 * unique index and is reported as a duplicate (never processed again, however many race).
 */
export async function acceptDelivery(
  ctx: AppContext,
  { inserts, queue }: Pick<GatewayState, 'inserts' | 'queue'>,
  source: string,
  incoming: IncomingDelivery,
  rawBody: Buffer,
): Promise<{ id: string; duplicate: boolean }> {
  // Time-ordered: lists are ordered by `_id` (oldest or newest first), and on FerretDB each insert
  // adds to the end of the `_id` and `id` indexes instead of a random page of them.
  const id = timeOrderedId();
  const now = ctx.clock.now();
  const delivery = {
    _id: id,
    id,
    source,
    deliveryId: incoming.deliveryId,
    event: incoming.event,
    test: incoming.test,
    signed: { deliveryId: incoming.signed.deliveryId, event: incoming.signed.event, test: incoming.signed.test },
    receivedAt: now,
    run: 0,
    processedRun: -1,
    processedAt: null,
    // Queued below: the sweep's grace period runs from here (sweep.job.ts).
    sweptAt: now,
  };
  // Group-committed with the deliveries arriving at the same moment, each after its body
  // (db/groupInsert.ts): answered once both are stored, and a duplicate's body is removed again.
  const inserted = await inserts.insert(delivery, { _id: id, headers: incoming.headers, rawBody });
  if (!inserted) {
    gatewayDeliveries.inc({ source, result: 'duplicate' });
    return { id, duplicate: true };
  }
  gatewayDeliveries.inc({ source, result: 'accepted' });
  // Enqueued in the next batch (queue.ts); after a crash before that, the sweep enqueues it.
  queue.add({ id, run: 0 });
  return { id, duplicate: false };
}

/** What crossed the wire with a delivery: its stored headers and the exact bytes. */
export interface DeliveryBody {
  headers: Record<string, string>;
  rawBody: Buffer;
}

/** The stored bytes: a Buffer from mongoose documents, a BSON Binary from lean reads. */
function bufferOf(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  const binary = value as { buffer: Uint8Array; length(): number };
  return Buffer.from(binary.buffer.subarray(0, binary.length()));
}

/** A body record as read: its headers and the exact bytes. */
export function bodyOf(stored: Pick<GatewayDeliveryBody, 'headers' | 'rawBody'>): DeliveryBody {
  return { headers: stored.headers as Record<string, string>, rawBody: bufferOf(stored.rawBody) };
}

/** The bodies of these deliveries by id, in one read; a delivery whose body is not stored has none in the map. */
export async function bodiesOf(ids: string[]): Promise<Map<string, DeliveryBody>> {
  const stored = ids.length ? await findLean<GatewayDeliveryBody>(GatewayDeliveryBodyModel, { _id: trusted({ $in: ids }) }, { limit: ids.length }) : [];
  return new Map(stored.map((b) => [b._id, bodyOf(b)]));
}

/** What rule expressions see for a stored delivery. */
export function ruleInputOf(
  delivery: Pick<GatewayDelivery, 'source' | 'event' | 'test' | 'signed' | 'deliveryId' | 'receivedAt'>,
  body: DeliveryBody,
  vars: Record<string, string>,
): RuleInput {
  return {
    payload: JSON.parse(body.rawBody.toString('utf8')),
    headers: body.headers,
    source: delivery.source,
    event: delivery.event,
    test: delivery.test,
    signed: { deliveryId: delivery.signed.deliveryId, event: delivery.signed.event, test: delivery.signed.test },
    deliveryId: delivery.deliveryId,
    receivedAt: delivery.receivedAt.toISOString(),
    vars,
  };
}

export interface DeliveryRecord extends DeliveryOutcomes {
  /** Read by the get only (the list shows no body). */
  body?: DeliveryBody | null;
}

/**
 * `page.order`: oldest first (default) or newest first, by `_id` (the time of receipt, then the id).
 * `totalLimit`: the total is counted up to it (DELIVERY_LIST_TOTAL_LIMIT); absent, exactly.
 * `now`: when the request began (outcomes.ts tells from it which outcomes a range read holds).
 */
export async function listDeliveries(filter: { source?: string; event?: string }, page: PageQuery & { order?: PageOrder }, totalLimit?: number, now = new Date()) {
  const query: Record<string, string> = {};
  if (filter.source) query.source = filter.source;
  if (filter.event) query.event = filter.event;
  const order = page.order ?? 'asc';
  // A delivery's `_id` is its public id (model.ts). The `_id` index, or `(source, _id)` and
  // `(event, _id)` when filtered, serves either order. The list shows neither body nor headers
  // (presentDelivery without `body`): they have their own record.
  const read = pageById<GatewayDelivery & { _id: string }>(GatewayDeliveryModel as unknown as Model<GatewayDelivery>, query, page, { totalLimit, order });
  // Unfiltered, a page is every delivery of its `_id` range, so the outcomes' range past the
  // cursor holds its outcomes and little else; filtered, it would hold other deliveries' too.
  const filtered = Object.keys(query).length > 0;
  const [result, ahead] = await Promise.all([read, filtered ? undefined : outcomesPast(page.cursor, page.limit, order)]);
  return { items: await withOutcomes(result.items, ahead, now), pagination: result.pagination };
}

export async function getDelivery(id: string): Promise<DeliveryRecord> {
  if (typeof id !== 'string') throw new AppError('delivery_not_found', 'Delivery not found');
  // The body is read beside the delivery, under the same `_id`.
  const [delivery, stored] = await Promise.all([
    GatewayDeliveryModel.findById(id).lean<GatewayDelivery>(),
    GatewayDeliveryBodyModel.findById(id).lean<GatewayDeliveryBody>(),
  ]);
  if (!delivery) throw new AppError('delivery_not_found', 'Delivery not found');
  return { ...(await withOutcomes([delivery]))[0]!, body: stored ? bodyOf(stored) : null };
}

/** Runs the current rules over a stored delivery again, as a new run with its own outcomes. */
export async function replayDelivery(ctx: AppContext, id: string): Promise<{ run: number }> {
  const updated = typeof id === 'string' ? await GatewayDeliveryModel.findOneAndUpdate({ _id: id }, { $inc: { run: 1 } }, { returnDocument: 'after' }).lean<GatewayDelivery>() : null;
  if (!updated) throw new AppError('delivery_not_found', 'Delivery not found');
  await ctx.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries: [{ id, run: updated.run }] });
  return { run: updated.run };
}
