// The delivery log of a hook (newest last, paged) and resends: a resend keeps the deliveryId and
// the exact request, and grants one more full schedule of attempts.
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { pageById, type Page, type PageQuery } from '../http/pagination.ts';
import { DeliveryModel, type AttemptResult, type Delivery, type DeliveryAttempt } from './model.ts';
import { readAttempts, resultsOfHook, unsettledChange } from './attempts.ts';
import { getWebhook, setWebhookEnabled } from './service.ts';
import type { Webhook } from './model.ts';
import { trusted } from '../db/connection.ts';
import { findOwned } from '../db/byId.ts';
import { byParent } from '../db/byParent.ts';
import type { RetrySchedule } from './retry.ts';

/** `status` is the delivery's state as its attempts tell it; `settled` is what its row says yet. */
export type DeliveryWithAttempts = Delivery & { attempts: DeliveryAttempt[]; settled: Delivery['status'] };

/**
 * The deliveries as their attempts tell them. The rows are the caller's fresh read, so each
 * becomes its answer in place: copying a row of some 25 fields, twice for a fresh row whose
 * result is not yet settled on it, cost more than the rest of the merge (docs/BENCHMARKS.md, "delivery lists").
 */
async function withAttempts(deliveries: Delivery[], known?: AttemptResult[]): Promise<DeliveryWithAttempts[]> {
  const byDelivery = byParent(await readAttempts(deliveries, known), (a) => a.deliveryId);
  return deliveries.map((d) => {
    const own = byDelivery.get(d.id) ?? [];
    const row = d as DeliveryWithAttempts;
    row.settled = d.status;
    row.attempts = own;
    const change = unsettledChange(d, own.at(-1));
    if (change) Object.assign(row, change);
    return row;
  });
}

/** `totalLimit`: the total is counted up to it (DELIVERY_LIST_TOTAL_LIMIT); absent, exactly. */
export async function listDeliveries(botId: string, webhookId: string, page: PageQuery, totalLimit?: number): Promise<Page<DeliveryWithAttempts>> {
  // The hook and the results of the hook's next deliveries are read beside the page, not after
  // it: a page of fresh rows with their results waits once. The hook's 404 still wins over the
  // page's own errors (a cursor of another hook's log).
  const [hook, found, near] = await Promise.allSettled([
    getWebhook(botId, webhookId),
    pageById<Delivery>(DeliveryModel, { webhookId }, page, { totalLimit }),
    resultsOfHook(webhookId, page.cursor, page.limit),
  ]);
  if (hook.status === 'rejected') throw hook.reason;
  if (found.status === 'rejected') throw found.reason;
  if (near.status === 'rejected') throw near.reason;
  return { items: await withAttempts(found.value.items, near.value), pagination: found.value.pagination };
}

export async function getDelivery(botId: string, webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
  await getWebhook(botId, webhookId);
  const delivery = await findOwned<Delivery>(DeliveryModel, deliveryId, { webhookId });
  if (!delivery) throw new AppError('delivery_not_found', 'Delivery not found');
  return (await withAttempts([delivery]))[0]!;
}

/**
 * Reopens a finished delivery for one more run of its schedule (`schedule`: the service's; the
 * delivery's own waits, when its hook had them, decide the count) starting now. Refused with 409 while the
 * delivery is still pending (its retries are running) or when the hook is disabled (it would
 * only be cancelled: disabled hooks send no live events).
 */
export async function reopenDelivery(
  ctx: Pick<AppContext, 'clock'>,
  botId: string,
  webhookId: string,
  deliveryId: string,
  schedule: RetrySchedule,
): Promise<{ delivery: DeliveryWithAttempts; webhook: Webhook }> {
  const webhook = await getWebhook(botId, webhookId);
  return { delivery: await reopen(ctx, webhook, await getDelivery(botId, webhookId, deliveryId), schedule), webhook };
}

async function reopen(ctx: Pick<AppContext, 'clock'>, hook: Webhook, current: DeliveryWithAttempts, schedule: RetrySchedule): Promise<DeliveryWithAttempts> {
  const webhookId = hook.id;
  const deliveryId = current.id;
  if (current.test) throw new AppError('conflict', 'A test send is not resent; send a new test instead');
  if (!hook.enabled) throw new AppError('conflict', 'The webhook is disabled; enable it before resending');
  // It has no request to send again: it failed before its first attempt (docs/WEBHOOKS.md, "Limits").
  if (current.error?.code) throw new AppError('conflict', `This delivery was never sent (${current.error.code}) and has no request to resend`);
  if (current.status === 'pending') throw new AppError('conflict', 'The delivery is still being attempted');
  // Its outcome is known but not yet copied onto the row (dispatcher.ts settles within moments):
  // reopening now would be overwritten by that copy. A fresh row whose first attempt succeeded
  // is never settled, so nothing would overwrite it.
  if (current.settled === 'pending' && !(current.fresh && current.status === 'delivered')) throw new AppError('conflict', 'The delivery outcome is still being recorded; try again in a moment');
  const lastNumber = current.attempts.at(-1)?.number ?? 0;
  const attempts = schedule.withDelays(current.retryDelaysMs).attempts;
  const reopened = await DeliveryModel.findOneAndUpdate(
    { _id: deliveryId, webhookId, status: current.settled },
    {
      $set: {
        status: 'pending',
        attemptLimit: lastNumber + attempts,
        runAfter: lastNumber,
        nextAttemptAt: ctx.clock.now(),
        finishedAt: null,
        cancelReason: null,
        fresh: false,
      },
    },
    { returnDocument: 'after' },
  ).lean<Delivery>();
  if (!reopened) throw new AppError('conflict', 'The delivery changed meanwhile; try again');
  return { ...reopened, attempts: current.attempts, settled: reopened.status };
}

/** At most this many deliveries are resent by one re-enable. */
export const RESEND_FAILED_LIMIT = 1000;

/**
 * Enables a hook and, when asked, resends the deliveries that ended failed or cancelled in its
 * failing window (from `failingSince`, the first failed attempt, to now: what the endpoint missed
 * before Relay disabled it, or before an operator did). Returns the reopened deliveries for the
 * dispatcher to kick.
 */
export async function enableWebhook(
  ctx: Pick<AppContext, 'clock'>,
  botId: string,
  webhookId: string,
  schedule: RetrySchedule,
  opts: { resendFailed?: boolean } = {},
): Promise<{ webhook: Webhook; resent: Delivery[] }> {
  const before = await getWebhook(botId, webhookId);
  const webhook = await setWebhookEnabled(botId, webhookId, true);
  const since = before.failingSince;
  if (!opts.resendFailed || !since) return { webhook, resent: [] };
  // Loaded once with their attempts (one read each), then each reopened by one conditional update.
  const missed = await DeliveryModel.find({ webhookId, finishedAt: trusted({ $gte: since }), status: trusted({ $in: ['failed', 'cancelled'] }) })
    .sort({ _id: 1 })
    .limit(RESEND_FAILED_LIMIT)
    .lean<Delivery[]>();
  const resent: Delivery[] = [];
  for (const current of await withAttempts(missed)) {
    try {
      resent.push(await reopen(ctx, webhook, current, schedule));
    } catch (err) {
      // Changed meanwhile (a resend of its own, a settle still to come): left as it is.
      if (!(err instanceof AppError)) throw err;
    }
  }
  return { webhook, resent };
}
