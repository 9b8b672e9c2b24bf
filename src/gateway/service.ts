// The gateway's rules of work: store a verified delivery once (source + deliveryId), hand it to
// the process job, list what happened, replay a delivery. Routes, jobs and the CLI call these.
import type { Model } from 'mongoose';
import type { AppContext } from '../context.ts';
import { timeOrderedId } from '../clock.ts';
import { AppError } from '../http/errors.ts';
import { paginate, type PageQuery } from '../http/pagination.ts';
import { gatewayDeliveries } from '../observability/metrics.ts';
import type { IncomingDelivery } from './intake.ts';
import { byPublicId } from '../db/byId.ts';
import { GatewayDeliveryBodyModel, GatewayDeliveryModel, type GatewayDelivery, type GatewayDeliveryBody } from './model.ts';
import type { RuleInput } from './rules/plan.ts';
import type { GatewayState } from './state.ts';
import { signedFactsOf, storedSignedFacts } from './signedFacts.ts';
import { trusted } from '../db/connection.ts';
import { outcomesAfter, withOutcomes, type DeliveryOutcomes } from './outcomes.ts';
import { PROCESS_JOB, type ProcessJobData } from './queue.ts';

export { PROCESS_JOB, type ProcessItem, type ProcessJobData } from './queue.ts';
export const ACTION_JOB = 'gateway.action';
export const SWEEP_JOB = 'gateway.sweep';

/** The actions one process job planned (outcome ids); `outcomeId` on jobs queued before that. */
export interface ActionJobData {
  outcomeIds?: string[];
  outcomeId?: string;
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
  // Time-ordered: lists are oldest first by `_id`, and on FerretDB each insert adds to the end of
  // the `_id` and `id` indexes instead of a random page of them (docs/BENCHMARKS.md, session 16).
  const id = timeOrderedId();
  const now = ctx.clock.now();
  const delivery = {
    _id: id,
    id,
    source,
    deliveryId: incoming.deliveryId,
    event: incoming.event,
    test: incoming.test,
    signedFacts: storedSignedFacts(incoming.signed),
    receivedAt: now,
    run: 0,
    processedRun: -1,
    processedAt: null,
    // Queued below: the sweep's grace period runs from here (sweep.job.ts).
    sweptAt: now,
  };
  // Group-committed with the deliveries arriving at the same moment, each after its body
  // (db/groupInsert.ts): answered once both are stored, and a duplicate's body is removed again.
  const inserted = await inserts.insert(delivery, { _id: id, headers: storedHeaderText(incoming.headers), rawBody });
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

/**
 * The headers as a body record stores them: one JSON text. On FerretDB every field of a stored
 * document has its type in the row's schema, and an object of ten headers made the body's insert
 * cost about half again what it does as one string (docs/BENCHMARKS.md, session 33).
 */
export function storedHeaderText(headers: Record<string, string>): string {
  return JSON.stringify(headers);
}

/** Stored headers: JSON text since session 33, an object in body records and rows stored before. */
function headersOf(stored: unknown): Record<string, string> {
  return typeof stored === 'string' ? (JSON.parse(stored) as Record<string, string>) : (stored as Record<string, string>);
}

/**
 * A delivery's body: its own record, or inside the delivery on rows stored before bodies had one.
 * Null when neither is stored, which the intake's order (body first) leaves only to a damaged database.
 */
export function bodyOf(delivery: Pick<GatewayDelivery, 'headers' | 'rawBody'>, stored: Pick<GatewayDeliveryBody, 'headers' | 'rawBody'> | null | undefined): DeliveryBody | null {
  const found = stored ?? (delivery.rawBody != null ? delivery : null);
  return found ? { headers: headersOf(found.headers), rawBody: bufferOf(found.rawBody) } : null;
}

/** The bodies of these deliveries by id, in one read; rows that hold their own body need none. */
export async function bodiesOf(deliveries: Array<Pick<GatewayDelivery, 'id' | 'headers' | 'rawBody'>>): Promise<Map<string, DeliveryBody | null>> {
  const apart = deliveries.filter((d) => d.rawBody == null).map((d) => d.id);
  const stored = apart.length ? await GatewayDeliveryBodyModel.find({ _id: trusted({ $in: apart }) }).lean<GatewayDeliveryBody[]>() : [];
  const byId = new Map(stored.map((b) => [b._id, b]));
  return new Map(deliveries.map((d) => [d.id, bodyOf(d, byId.get(d.id))]));
}

/** What rule expressions see for a stored delivery. */
export function ruleInputOf(
  delivery: Pick<GatewayDelivery, 'source' | 'event' | 'test' | 'signed' | 'signedFacts' | 'deliveryId' | 'receivedAt'>,
  body: DeliveryBody,
  vars: Record<string, string>,
): RuleInput {
  return {
    payload: JSON.parse(body.rawBody.toString('utf8')),
    headers: body.headers,
    source: delivery.source,
    event: delivery.event,
    test: delivery.test,
    signed: signedFactsOf(delivery),
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
 * `totalLimit`: the total is counted up to it (DELIVERY_LIST_TOTAL_LIMIT); absent, exactly.
 * `now`: when the request began (outcomes.ts tells from it which outcomes a range read holds).
 */
export async function listDeliveries(filter: { source?: string; event?: string }, page: PageQuery, totalLimit?: number, now = new Date()) {
  const query: Record<string, string> = {};
  if (filter.source) query.source = filter.source;
  if (filter.event) query.event = filter.event;
  // The list shows neither body nor headers (presentDelivery without `body`): they have their own
  // record, and rows stored before that are read without them (the headers are half such a row's
  // bytes; a page of 100: 1.8-2.0 -> 1.2-1.4 ms of API CPU).
  const read = paginate(GatewayDeliveryModel as unknown as Model<GatewayDelivery>, query, page, { projection: { rawBody: 0, headers: 0 }, totalLimit });
  // Unfiltered, a page is every delivery of its `_id` range, so the outcomes' range after the
  // cursor holds its outcomes and little else; filtered, it would hold other deliveries' too.
  const filtered = Object.keys(query).length > 0;
  const [result, ahead] = await Promise.all([read, filtered ? undefined : outcomesAfter(page.cursor, page.limit)]);
  return { items: await withOutcomes(result.items as GatewayDelivery[], ahead, now), pagination: result.pagination };
}

export async function getDelivery(id: string): Promise<DeliveryRecord> {
  // The body is read beside the delivery: its key is the public id, whichever `_id` the delivery has.
  const [delivery, stored] = await Promise.all([
    byPublicId<GatewayDelivery>(GatewayDeliveryModel, id),
    GatewayDeliveryBodyModel.findById(id).lean<GatewayDeliveryBody>(),
  ]);
  if (!delivery) throw new AppError('delivery_not_found', 'Delivery not found');
  return { ...(await withOutcomes([delivery]))[0]!, body: bodyOf(delivery, stored) };
}

/** Runs the current rules over a stored delivery again, as a new run with its own outcomes. */
export async function replayDelivery(ctx: AppContext, id: string): Promise<{ run: number }> {
  const stored = await byPublicId<GatewayDelivery>(GatewayDeliveryModel, id);
  const updated = stored && (await GatewayDeliveryModel.findOneAndUpdate({ _id: stored._id }, { $inc: { run: 1 } }, { new: true }).lean<GatewayDelivery>());
  if (!updated) throw new AppError('delivery_not_found', 'Delivery not found');
  await ctx.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries: [{ id, run: updated.run }] });
  return { run: updated.run };
}
