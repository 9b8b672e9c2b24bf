// What the delivery list and the get show of each delivery's runs: its rule and action outcomes,
// in run and rule order. An unfiltered list page reads the outcomes of the deliveries past its
// cursor (after it oldest first, before it newest first) by their `delivery` key's range, beside
// the page's own read (one wait), and by id after the page only those of deliveries the range does
// not hold whole.
import type { Model } from 'mongoose';
import { trusted } from '../db/connection.ts';
import { byParent } from '../db/byParent.ts';
import { findLean } from '../db/find.ts';
import type { PageOrder } from '../http/pagination.ts';
import { ActionOutcomeModel, RuleOutcomeModel, type ActionOutcome, type GatewayDelivery, type RuleOutcome } from './model.ts';

/**
 * Outcomes of one kind read by range, in the page's order: every outcome whose delivery lies past
 * `from` and short of `to`.
 */
interface Range<T> {
  rows: T[];
  /** The page's cursor; null: from the first delivery in the page's order. */
  from: string | null;
  /** Null: the read reached the end, so it holds everything past `from`. */
  to: string | null;
  descending: boolean;
}

export interface OutcomesAhead {
  rules: Range<RuleOutcome>;
  actions: Range<ActionOutcome>;
}

/**
 * An outcome is recorded before its delivery is marked processed (process.job.ts), but the range
 * is read beside the page, so its snapshot may be the older one. A delivery marked this long
 * before the request began had its outcomes committed before any of the request's reads; one
 * marked later is read by id after the page. The margin covers clocks of other machines.
 */
const MARKED_BEFORE_MS = 10_000;

async function rangePast<T extends { delivery: string }>(model: Model<any>, from: string | null, limit: number, descending: boolean): Promise<Range<T>> {
  // The unique (delivery, run, rule[, index]) index serves the range and its order, read forwards
  // or backwards, on either database, for rows of every release: `delivery` is the public id,
  // whatever the `_id`. The first page's bound is a string, as in pageById (one type, no probe).
  const past = from === null ? { $gte: '' } : descending ? { $lt: from } : { $gt: from };
  const rows = await findLean<T>(model, { delivery: trusted(past) }, { sort: { delivery: descending ? -1 : 1 }, limit });
  // A full read may end inside its last delivery's outcomes: that delivery is not held whole.
  return { rows, from, to: rows.length === limit ? rows.at(-1)!.delivery : null, descending };
}

/**
 * The outcomes of the deliveries past `cursor` in `order` (none: from the first), read beside an
 * unfiltered page of `limit`: one more of each kind than the page holds deliveries, so with one
 * rule and one action a delivery the next page's first proves the page's last is held whole.
 */
export async function outcomesPast(cursor: string | null | undefined, limit: number, order: PageOrder = 'asc'): Promise<OutcomesAhead> {
  const descending = order === 'desc';
  const [rules, actions] = await Promise.all([
    rangePast<RuleOutcome>(RuleOutcomeModel, cursor ?? null, limit + 1, descending),
    rangePast<ActionOutcome>(ActionOutcomeModel, cursor ?? null, limit + 1, descending),
  ]);
  return { rules, actions };
}

// Delivery ids are ASCII UUIDs, which JavaScript orders as the database does (by bytes).
function holds(range: Range<unknown>, id: string): boolean {
  const [low, high] = range.descending ? [range.to, range.from] : [range.from, range.to];
  return (low === null || id > low) && (high === null || id < high);
}

/** The outcomes of these deliveries: those the range holds whole from it, the rest by id. */
async function outcomesOf<T extends { delivery: string }>(model: Model<any>, deliveries: GatewayDelivery[], range: Range<T> | undefined, settled: (d: GatewayDelivery) => boolean): Promise<T[]> {
  const held = new Set<string>();
  const rest: string[] = [];
  for (const d of deliveries) {
    if (range && settled(d) && holds(range, d.id)) held.add(d.id);
    else rest.push(d.id);
  }
  // An empty `$in` is no index condition: it would scan every outcome.
  const read = rest.length ? await findLean<T>(model, { delivery: trusted({ $in: rest }) }) : [];
  return range ? [...range.rows.filter((o) => held.has(o.delivery)), ...read] : read;
}

export interface DeliveryOutcomes {
  delivery: GatewayDelivery;
  rules: RuleOutcome[];
  actions: ActionOutcome[];
}

/** `ahead`: outcomes read beside the page (outcomesPast) at `now`; without it, all are read by id. */
export async function withOutcomes(deliveries: GatewayDelivery[], ahead?: OutcomesAhead, now = new Date()): Promise<DeliveryOutcomes[]> {
  if (deliveries.length === 0) return [];
  const settled = (d: GatewayDelivery) => !d.processedAt || d.processedAt.getTime() <= now.getTime() - MARKED_BEFORE_MS;
  const [rules, actions] = await Promise.all([
    outcomesOf<RuleOutcome>(RuleOutcomeModel, deliveries, ahead?.rules, settled),
    outcomesOf<ActionOutcome>(ActionOutcomeModel, deliveries, ahead?.actions, settled),
  ]);
  // Ordered here, per delivery: a database sort over `$in` merges the page's index ranges, and on
  // FerretDB it costs a probe per id and sort key first (docs/BENCHMARKS.md, issue 17 reads).
  const byRunAndRule = (a: Pick<RuleOutcome, 'run' | 'rule'>, b: Pick<RuleOutcome, 'run' | 'rule'>) => a.run - b.run || compareText(a.rule, b.rule);
  rules.sort(byRunAndRule);
  actions.sort((a, b) => byRunAndRule(a, b) || a.index - b.index);
  const rulesOf = byParent(rules, (r) => r.delivery);
  const actionsOf = byParent(actions, (a) => a.delivery);
  return deliveries.map((delivery) => ({ delivery, rules: rulesOf.get(delivery.id) ?? [], actions: actionsOf.get(delivery.id) ?? [] }));
}

/** MongoDB's order of strings (by bytes), not the locale's. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
