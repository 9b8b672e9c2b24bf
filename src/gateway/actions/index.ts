// The action types a rule can take, behind one entry point (see report.ts for the contract).
import type { ActionType } from '../rules/format.ts';
import { failed, type ActionContext, type ActionOutcomeReport } from './report.ts';
import { runEmail } from './email.ts';
import { runHttp } from './http.ts';
import { runLog } from './log.ts';
import { runResync } from './resync.ts';
import type { ActionSpec, EmailSpec, HttpSpec, LogSpec, ResyncSpec } from './specs.ts';

export async function runAction(type: ActionType, spec: ActionSpec, ctx: ActionContext): Promise<ActionOutcomeReport> {
  try {
    switch (type) {
      case 'email':
        return await runEmail(spec as EmailSpec, ctx);
      case 'http':
        return await runHttp(spec as HttpSpec, ctx);
      case 'resync':
        return await runResync(spec as ResyncSpec, ctx);
      case 'log':
        return runLog(spec as LogSpec, ctx);
    }
  } catch (err) {
    return failed(`unexpected error: ${(err as Error).message}`, true);
  }
}

/**
 * Runs an action that finishes inside the planning process and cannot fail (`log`), or returns
 * null for one that needs its own job. Such an action is recorded as done when planned: a job, a
 * claim and two outcome updates cost the database several times what the action does (issue 17).
 * Planned again after a crash it runs again, as any action may (at least once).
 */
export function runInPlace(type: ActionType, spec: ActionSpec, ctx: Pick<ActionContext, 'rule' | 'delivery' | 'logger'>): ActionOutcomeReport | null {
  return type === 'log' ? runLog(spec as LogSpec, ctx) : null;
}
