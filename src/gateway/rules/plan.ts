// Decides what a delivery sets off: which rules apply (source, event, `when`) and, for each
// matched rule, its actions with every expression evaluated. Pure: the process job records the
// plan and enqueues it, the CLI dry-run prints it.
import { resolveSpec, type ActionSpec } from '../actions/specs.ts';
import type { ActionType } from './format.ts';
import type { CompiledRule, RuleSet } from './loader.ts';
import type { SignedFacts } from '../intake.ts';

/** What every expression sees (docs/RULES.md). */
export interface RuleInput {
  payload: unknown;
  headers: Record<string, string>;
  source: string;
  event: string;
  test: boolean;
  /** Which of deliveryId, event and test rest on a signature (intake.ts). */
  signed: SignedFacts;
  deliveryId: string;
  receivedAt: string;
  /** GATEWAY_CONFIG `vars`. */
  vars: Record<string, string>;
}

export interface PlannedAction {
  index: number;
  type: ActionType;
  spec: ActionSpec | null;
  error: string | null;
}

export interface RulePlan {
  rule: string;
  file: string;
  result: 'matched' | 'skipped' | 'error';
  error: string | null;
  actions: PlannedAction[];
}

const listed = (list: string[] | undefined, value: string) => !list || list.includes('*') || list.includes(value);

/** JSONata's own truthiness ($boolean): empty strings, 0, empty arrays and objects are false. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(truthy);
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** JSONata results may be internal sequences; store plain JSON. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

export function rulesFor(set: RuleSet, source: string, event: string): CompiledRule[] {
  return set.rules.filter((r) => r.definition.enabled && listed(r.definition.sources, source) && listed(r.definition.events, event));
}

async function planRule(rule: CompiledRule, input: RuleInput): Promise<RulePlan> {
  const plan: RulePlan = { rule: rule.name, file: rule.file, result: 'skipped', error: null, actions: [] };
  if (rule.when) {
    try {
      if (!truthy(await rule.when.evaluate(input))) return plan;
    } catch (err) {
      return { ...plan, result: 'error', error: `when: ${(err as Error).message}` };
    }
  }
  plan.result = 'matched';
  for (const action of rule.actions) {
    const values: Record<string, unknown> = {};
    try {
      for (const [field, expression] of action.expressions) {
        try {
          values[field] = plain(await expression.evaluate(input));
        } catch (err) {
          throw new Error(`${field}: ${(err as Error).message}`);
        }
      }
      plan.actions.push({ index: action.index, type: action.definition.type, spec: resolveSpec(action.definition, values), error: null });
    } catch (err) {
      plan.actions.push({ index: action.index, type: action.definition.type, spec: null, error: `actions.${action.index}.${(err as Error).message}` });
    }
  }
  return plan;
}

export async function planDelivery(set: RuleSet, input: RuleInput): Promise<RulePlan[]> {
  const plans: RulePlan[] = [];
  for (const rule of rulesFor(set, input.source, input.event)) plans.push(await planRule(rule, input));
  return plans;
}
