// Attempts as they are read: the claim (written before the request left: attempt 1's in the
// delivery row, later ones as attempt rows) merged with its result row (written once it ended),
// and a delivery as its newest attempt tells it. The delivery row's own status is a copy that may
// trail the results by a moment: first attempts record their results in batches and settle the
// delivery rows afterwards (dispatcher.ts).
import { attemptKey, AttemptModel, AttemptResultModel, type AttemptClaim, type AttemptResult, type Delivery, type DeliveryAttempt, type DeliveryStatus } from './model.ts';
import { insertNew } from '../db/insertNew.ts';
import { trusted } from '../db/connection.ts';
import { findLean } from '../db/find.ts';

/**
 * An attempt as its claim and its result (if it has one yet) tell it. One literal of every field,
 * not a spread of the claim and then the outcome's fields: V8 gave each such object a shape of its
 * own, ~15 µs a row against well under one for the literal (docs/BENCHMARKS.md, "delivery lists").
 */
export function withResult(claim: AttemptClaim, result: AttemptResult | null | undefined): DeliveryAttempt {
  const { _id, deliveryId, number, startedAt, leaseUntil, runner } = claim;
  if (!result) {
    return { _id, deliveryId, number, startedAt, leaseUntil, runner, status: 'pending', finishedAt: null, httpStatus: null, durationMs: null, error: null, responseBody: null, responseTruncated: false, retryAt: null };
  }
  const { status, finishedAt, httpStatus, durationMs, error, responseBody, responseTruncated, retryAt } = result;
  return { _id, deliveryId, number, startedAt, leaseUntil, runner, status, finishedAt, httpStatus, durationMs, error, responseBody, responseTruncated, retryAt };
}

type Claimed = Pick<Delivery, 'id' | 'firstClaim'> & { fresh?: boolean | null };

/** Attempt 1's claim as the delivery row holds it (none on a delivery created failed). */
function firstClaimOf(delivery: Claimed): AttemptClaim | null {
  const claim = delivery.firstClaim;
  if (!claim?.startedAt || !claim.leaseUntil) return null;
  return { _id: attemptKey(delivery.id, 1), deliveryId: delivery.id, number: 1, startedAt: claim.startedAt, leaseUntil: claim.leaseUntil, runner: null };
}

/** One attempt of a delivery, with its result. */
export async function readAttempt(delivery: Claimed, number: number): Promise<DeliveryAttempt | null> {
  const key = attemptKey(delivery.id, number);
  const embedded = number === 1 ? firstClaimOf(delivery) : null;
  const [claim, result] = await Promise.all([embedded ?? AttemptModel.findById(key).lean<AttemptClaim>(), AttemptResultModel.findById(key).lean<AttemptResult>()]);
  return claim && withResult(claim, result);
}

/**
 * A hook's result rows in `_id` order (delivery, then attempt) after the delivery `after` (none:
 * from its first), at most `limit`: read beside a log page, they hold the results of its fresh
 * rows, most of a page, so those need no read after it.
 */
export function resultsOfHook(webhookId: string, after: string | null | undefined, limit: number): Promise<AttemptResult[]> {
  // Past the cursor's own results: attempt keys are the delivery id, '#' and 4 digits.
  // From the lowest string on the first page: a bound of one type spares FerretDB a probe before
  // it takes the order from the index (as pageById's).
  const filter = { webhookId, _id: trusted(after ? { $gt: attemptKey(after, 9999) } : { $gte: '' }) };
  return findLean<AttemptResult>(AttemptResultModel, filter, { sort: { _id: 1 }, limit });
}

/**
 * Every attempt of these deliveries, oldest first, with their results. `known`: results already
 * read (resultsOfHook); a fresh row whose attempt 1 result is among them needs no read of its own.
 */
export async function readAttempts(deliveries: Claimed[], known: AttemptResult[] = []): Promise<DeliveryAttempt[]> {
  // An empty page reads nothing: `$in: []` is no index condition, so it would scan every hook's attempts.
  if (deliveries.length === 0) return [];
  const byKey = new Map(known.map((r) => [r._id, r]));
  // A row claimed in the delivery row and still fresh has no attempt rows: perform() unmarks it
  // before it claims one (delivery.job.ts). Most rows are, so most pages skip that read, and with
  // their results known, every read after the page.
  const firsts = deliveries.map(firstClaimOf);
  const claimedFresh = new Set(deliveries.filter((d, i) => d.fresh && firsts[i]).map((d) => d.id));
  const unknown = deliveries.filter((d) => !(claimedFresh.has(d.id) && byKey.has(attemptKey(d.id, 1))));
  const withRows = unknown.filter((d) => !claimedFresh.has(d.id)).map((d) => d.id);
  const [rows, results] = await Promise.all([
    // Ordered below with the claims in the delivery rows (a database sort over `$in` costs more).
    withRows.length ? AttemptModel.find({ deliveryId: trusted({ $in: withRows }) }).lean<AttemptClaim[]>() : [],
    unknown.length ? AttemptResultModel.find({ deliveryId: trusted({ $in: unknown.map((d) => d.id) }) }).lean<AttemptResult[]>() : [],
  ]);
  for (const r of results) byKey.set(r._id, r);
  const attempts = [...firsts.filter((a) => a !== null), ...rows].sort((a, b) => a.number - b.number);
  return attempts.map((a) => withResult(a, byKey.get(a._id)));
}

/** Records outcomes; an attempt that already has one keeps it. Returns the keys recorded by this call. */
export async function insertResults(results: AttemptResult[]): Promise<Set<string>> {
  const existed = await insertNew(AttemptResultModel.collection, results);
  return new Set(results.filter((_, i) => !existed.has(i)).map((r) => r._id));
}

export interface Settlement {
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
}

/** What the delivery row says once this ended attempt is settled on it. */
export function settlement(delivery: Pick<Delivery, 'attemptLimit'>, attempt: Pick<DeliveryAttempt, 'number' | 'status' | 'finishedAt' | 'retryAt'>): Settlement {
  const finishedAt = attempt.finishedAt ?? null;
  if (attempt.status === 'succeeded') return { status: 'delivered', attemptCount: attempt.number, nextAttemptAt: null, finishedAt };
  if (attempt.status === 'failed' && attempt.number >= delivery.attemptLimit) return { status: 'failed', attemptCount: attempt.number, nextAttemptAt: null, finishedAt };
  return { status: 'pending', attemptCount: attempt.number, nextAttemptAt: attempt.retryAt ?? null, finishedAt: null };
}

/**
 * What the delivery row would say once its newest attempt of the current run is settled on it,
 * when that differs from what it says yet; null when the row is as its attempts tell it.
 */
export function unsettledChange(delivery: Delivery, latest: DeliveryAttempt | undefined): Settlement | null {
  // A running or interrupted attempt changes nothing yet: the row counts attempts as they end.
  if (delivery.status !== 'pending' || !latest || latest.number <= (delivery.runAfter ?? 0)) return null;
  if (latest.status === 'pending' || latest.status === 'interrupted') return null;
  return settlement(delivery, latest);
}
