// `log`: records the message in the service log (and the action outcome) and does nothing else.
import { ok, type ActionContext, type ActionOutcomeReport } from './report.ts';
import type { LogSpec } from './specs.ts';

export function runLog(spec: LogSpec, ctx: Pick<ActionContext, 'rule' | 'delivery' | 'logger'>): ActionOutcomeReport {
  ctx.logger[spec.level]({ rule: ctx.rule, source: ctx.delivery.source, deliveryId: ctx.delivery.deliveryId, event: ctx.delivery.event }, spec.message);
  return ok({ message: spec.message });
}
