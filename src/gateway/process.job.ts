// gateway.process: plans a run of each stored delivery of a batch against the current rules,
// records each rule's result and each action (with its evaluated spec) under unique keys, and
// enqueues the actions together. Safe to run twice: records are inserted once and actions are claimed before
// they run, so a worker that picks this up after a crash repeats nothing.
import type { AppContext } from '../context.ts';
import { ruleOutcomes } from '../observability/metrics.ts';
import { actionOutcomeId, ActionOutcomeModel, GatewayDeliveryModel, ruleOutcomeId, RuleOutcomeModel, type GatewayDelivery } from './model.ts';
import type { RuleSet } from './rules/loader.ts';
import { planDelivery, type RulePlan } from './rules/plan.ts';
import { ACTION_JOB, bodiesOf, ruleInputOf, type ActionJobData, type DeliveryBody, type ProcessJobData } from './service.ts';
import { trusted } from '../db/connection.ts';
import { findLean } from '../db/find.ts';
import { insertNew } from '../db/insertNew.ts';
import { runInPlace } from './actions/index.ts';

/** A planned action: `known` when this planning inserted it as pending, else its status must be read. */
interface PlannedAction {
  id: string;
  known: boolean;
}

interface DeliveryPlan {
  delivery: Pick<GatewayDelivery, 'id' | 'source' | 'deliveryId' | 'event'>;
  run: number;
  plans: RulePlan[];
}

/**
 * Records each rule's result and each action once, by insert under a key derived from the run:
 * a second planning of the run (after a crash) keeps the first records. A batch's records go in
 * one insert per collection (an existing key is kept, the rest inserted): two commands per job,
 * not two per delivery. Returns the actions that may be waiting to start.
 */
async function recordPlans(ctx: AppContext, batch: DeliveryPlan[]): Promise<PlannedAction[]> {
  const now = ctx.clock.now();
  const rules: object[] = [];
  const actions: object[] = [];
  // `waits`: pending for a gateway.action job; `ended`: recorded with how it ended (a planning error, or run in place).
  const planned: Array<{ id: string; waits: boolean; rule: string; type: string; ended: 'succeeded' | 'failed' | null }> = [];
  for (const { delivery, run, plans } of batch) {
    for (const plan of plans) {
      rules.push({ _id: ruleOutcomeId(delivery.id, run, plan.rule), delivery: delivery.id, run, rule: plan.rule, file: plan.file, result: plan.result, error: plan.error ?? null, evaluatedAt: now });
      if (plan.result === 'error') ruleOutcomes.inc({ rule: plan.rule, action: 'when', outcome: 'error' });
      for (const action of plan.actions) {
        const id = actionOutcomeId(delivery.id, run, plan.rule, action.index);
        const report = action.spec === null ? null : runInPlace(action.type, action.spec, { rule: plan.rule, delivery, logger: ctx.logger });
        const status = action.spec === null ? 'failed' : report ? (report.ok ? 'succeeded' : 'failed') : 'pending';
        planned.push({ id, waits: status === 'pending', rule: plan.rule, type: action.type, ended: status === 'pending' ? null : status });
        const error = report ? report.error : action.error;
        actions.push({
          _id: id,
          delivery: delivery.id,
          run,
          rule: plan.rule,
          index: action.index,
          type: action.type,
          spec: action.spec ?? {},
          status,
          attempts: report ? 1 : 0,
          leaseUntil: null,
          result: report?.result ?? null,
          error: error ?? null,
          createdAt: now,
          finishedAt: status === 'pending' ? null : now,
          // Pending: enqueued by this run, so the sweep's grace period runs from here (sweep.job.ts).
          sweptAt: status === 'pending' ? now : null,
        });
      }
    }
  }
  await insertNew(RuleOutcomeModel.collection, rules);
  const existed = await insertNew(ActionOutcomeModel.collection, actions);
  const out: PlannedAction[] = [];
  planned.forEach((action, i) => {
    const inserted = !existed.has(i);
    // Inserted now: pending exactly when it waits for a job. Already there: its status is whatever it reached.
    if (!inserted || action.waits) out.push({ id: action.id, known: inserted });
    if (inserted && action.ended) ruleOutcomes.inc({ rule: action.rule, action: action.type, outcome: action.ended });
  });
  return out;
}

/** Actions per gateway.action job: one job for what a batch planned, split so each job stays short. */
const ACTIONS_PER_JOB = 100;

/**
 * Enqueues those of the actions still waiting to start (also after a crash mid-way), together: on
 * FerretDB a job costs four commands and its lock queries, more than the action itself.
 */
async function enqueuePendingActions(ctx: AppContext, actions: PlannedAction[]): Promise<number> {
  const waiting: string[] = [];
  for (const { id, known } of actions) {
    if (!known) {
      const outcome = await ActionOutcomeModel.findById(id, { status: 1 }).lean<{ status: string }>();
      if (outcome?.status !== 'pending') continue;
    }
    waiting.push(id);
  }
  for (let i = 0; i < waiting.length; i += ACTIONS_PER_JOB) await ctx.jobs.now<ActionJobData>(ACTION_JOB, { outcomeIds: waiting.slice(i, i + ACTIONS_PER_JOB) });
  return waiting.length;
}

type GatewayView = () => { rules: RuleSet; vars: Record<string, string> };

/** How often a long batch extends its job lock: well inside the smallest allowed lock lifetime. */
const TOUCH_EVERY_MS = 5_000;

/**
 * Deliveries planned between two turns of the event loop. Planning (JSON.parse, the rules'
 * JSONata) awaits only promises that are already settled, so a batch of hundreds would hold the
 * loop, and every request of the process, for its whole length.
 */
const PLANS_PER_TURN = 20;

/**
 * The job's deliveries in one read, instead of one per delivery: on FerretDB each command costs
 * about a millisecond of its CPU, which made the per-delivery reads and writes most of what intake
 * cost (bench/scale.ts). Their bodies are one more read, of those still to plan. Both are read as
 * one find command (findLean with a limit), like a list page, for the same reason: less for the
 * API process's young collections to copy while it serves requests.
 */
async function storedDeliveries(ids: string[]): Promise<Map<string, GatewayDelivery>> {
  if (ids.length === 0) return new Map();
  return new Map((await findLean<GatewayDelivery>(GatewayDeliveryModel, { _id: trusted({ $in: ids }) }, { limit: ids.length })).map((d) => [d.id, d]));
}

/** Marks the planned deliveries processed, one update per run number (almost always one in all). */
async function markProcessed(ctx: AppContext, done: Array<{ delivery: GatewayDelivery; run: number }>): Promise<void> {
  const now = ctx.clock.now();
  for (const run of new Set(done.map((d) => d.run))) {
    const ids = done.filter((d) => d.run === run).map((d) => d.delivery.id);
    // $max: a slower runner of an older run never moves processedRun back.
    await GatewayDeliveryModel.updateMany({ _id: trusted({ $in: ids }) }, { $max: { processedRun: run }, $set: { processedAt: now } });
  }
}

/**
 * Processes every delivery of the job: plans each (a body that no longer parses plans nothing; a
 * delivery whose body is not stored is left unprocessed and logged, never planned as empty),
 * records and enqueues the batch's plans, then marks the batch processed. A database error fails
 * the job, whose retry (or the sweep) plans the batch again: every record is inserted once, so
 * nothing is repeated. A batch can outlast the job lock on a slow database; `touch` (Agenda's
 * job.touch) keeps the lock, or Agenda would give the same batch to another run while this one
 * carries on.
 */
export async function performProcess(ctx: AppContext, gateway: GatewayView, data: ProcessJobData, touch?: () => Promise<void>): Promise<void> {
  let touchedAt = ctx.clock.now().getTime();
  const items = data.deliveries ?? [];
  const stored = await storedDeliveries([...new Set(items.map((i) => i.id))]);
  const due = items.filter((item) => (stored.get(item.id)?.processedRun ?? Infinity) < item.run);
  const bodies = await bodiesOf([...new Set(due.map((item) => item.id))]);
  const done: Array<{ delivery: GatewayDelivery; run: number }> = [];
  const planned: DeliveryPlan[] = [];
  for (const [i, item] of due.entries()) {
    if (i > 0 && i % PLANS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (touch && ctx.clock.now().getTime() - touchedAt >= TOUCH_EVERY_MS) {
      await touch();
      touchedAt = ctx.clock.now().getTime();
    }
    const delivery = stored.get(item.id)!;
    const body = bodies.get(delivery.id);
    if (!body) {
      ctx.logger.error({ delivery: delivery.id }, 'gateway delivery has no stored body; left unprocessed');
      continue;
    }
    planned.push({ delivery, run: item.run, plans: await planRun(ctx, gateway, delivery, body) });
    done.push({ delivery, run: item.run });
  }
  // Recorded and enqueued before the marks: a crash between leaves the deliveries to be planned
  // again, which finds the recorded actions and enqueues those still pending.
  await enqueuePendingActions(ctx, await recordPlans(ctx, planned));
  await markProcessed(ctx, done);
}

/** What the current rules make of a delivery (nothing for a stored body that no longer parses). */
async function planRun(ctx: AppContext, gateway: GatewayView, delivery: GatewayDelivery, body: DeliveryBody): Promise<RulePlan[]> {
  try {
    const { rules, vars } = gateway();
    return await planDelivery(rules, ruleInputOf(delivery, body, vars));
  } catch (err) {
    ctx.logger.error({ err, delivery: delivery.id }, 'gateway delivery cannot be planned');
    return [];
  }
}
