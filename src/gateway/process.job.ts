// gateway.process: plans one run of a stored delivery against the current rules, records each
// rule's result and each action (with its evaluated spec) under unique keys, and enqueues one
// job per action. Safe to run twice: records are inserted once and actions are claimed before
// they run, so a worker that picks this up after a crash repeats nothing.
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { ruleOutcomes } from '../observability/metrics.ts';
import { ActionOutcomeModel, GatewayDeliveryModel, RuleOutcomeModel, type GatewayDelivery } from './model.ts';
import type { RuleSet } from './rules/loader.ts';
import { planDelivery, type RulePlan } from './rules/plan.ts';
import { ACTION_JOB, ruleInputOf, type ActionJobData, type ProcessItem, type ProcessJobData } from './service.ts';
import { trusted } from '../db/connection.ts';

const ignoreDuplicate = (err: unknown) => {
  if ((err as { code?: number })?.code !== 11000) throw err;
};

async function recordPlan(ctx: AppContext, delivery: string, run: number, plan: RulePlan): Promise<void> {
  const now = ctx.clock.now();
  await RuleOutcomeModel.updateOne(
    { delivery, run, rule: plan.rule },
    { $setOnInsert: { file: plan.file, result: plan.result, error: plan.error, evaluatedAt: now } },
    { upsert: true },
  ).catch(ignoreDuplicate);
  if (plan.result === 'error') ruleOutcomes.inc({ rule: plan.rule, action: 'when', outcome: 'error' });
  for (const action of plan.actions) {
    const planned = action.spec !== null;
    await ActionOutcomeModel.updateOne(
      { delivery, run, rule: plan.rule, index: action.index },
      {
        $setOnInsert: {
          id: newId(),
          type: action.type,
          spec: action.spec ?? {},
          status: planned ? 'pending' : 'failed',
          error: action.error,
          createdAt: now,
          finishedAt: planned ? null : now,
        },
      },
      { upsert: true },
    ).catch(ignoreDuplicate);
    if (!planned) ruleOutcomes.inc({ rule: plan.rule, action: action.type, outcome: 'failed' });
  }
}

/** Enqueues every action of the run still waiting to start (also after a crash mid-way). */
export async function enqueuePendingActions(ctx: AppContext, delivery: string, run: number): Promise<number> {
  const pending = await ActionOutcomeModel.find({ delivery, run, status: 'pending' }, { id: 1 }).lean<{ id: string }[]>();
  for (const outcome of pending) await ctx.jobs.now<ActionJobData>(ACTION_JOB, { outcomeId: outcome.id });
  return pending.length;
}

type GatewayView = () => { rules: RuleSet; vars: Record<string, string> };

/** How often a long batch extends its job lock: well inside the smallest allowed lock lifetime. */
const TOUCH_EVERY_MS = 5_000;

/**
 * Processes every delivery of the job; one that fails does not stop the others, and re-throws after.
 * A batch can outlast the job lock on a slow database; `touch` (Agenda's job.touch) keeps the lock,
 * or Agenda would give the same batch to another run while this one carries on.
 */
export async function performProcess(ctx: AppContext, gateway: GatewayView, data: ProcessJobData, touch?: () => Promise<void>): Promise<void> {
  let failure: unknown = null;
  let touchedAt = ctx.clock.now().getTime();
  for (const item of data.deliveries ?? []) {
    if (touch && ctx.clock.now().getTime() - touchedAt >= TOUCH_EVERY_MS) {
      await touch();
      touchedAt = ctx.clock.now().getTime();
    }
    try {
      await processDelivery(ctx, gateway, item);
    } catch (err) {
      ctx.logger.error({ err, delivery: item.id }, 'gateway delivery processing failed; the job will retry');
      failure = err;
    }
  }
  if (failure) throw failure;
}

async function processDelivery(ctx: AppContext, gateway: GatewayView, data: ProcessItem): Promise<void> {
  const delivery = await GatewayDeliveryModel.findOne({ id: data.id }).lean<GatewayDelivery>();
  if (!delivery || delivery.processedRun >= data.run) return;
  let plans: RulePlan[];
  try {
    const { rules, vars } = gateway();
    plans = await planDelivery(rules, ruleInputOf(delivery, vars));
  } catch (err) {
    // Only a stored body that no longer parses gets here; nothing can be planned for it.
    ctx.logger.error({ err, delivery: delivery.id }, 'gateway delivery cannot be planned');
    plans = [];
  }
  for (const plan of plans) await recordPlan(ctx, delivery.id, data.run, plan);
  await enqueuePendingActions(ctx, delivery.id, data.run);
  await GatewayDeliveryModel.updateOne({ id: delivery.id, processedRun: trusted({ $lt: data.run }) }, { $set: { processedRun: data.run, processedAt: ctx.clock.now() } });
}
