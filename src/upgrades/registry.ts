// Changes of stored data from release 1.0.0 on: one registry of numbered steps, each named by the
// release that brings it (`1.1.0-001-…`), contributed by domain modules (DomainModule.upgrades) and
// run in name order by each worker at start. A step is recorded once in `upgrades` when it ends;
// each try is claimed first by a unique insert in `upgradeClaims` (the race-proof primitive on
// FerretDB v1 too), so two instances starting together never both run one. A failure is recorded
// with its error and tried again at the next start; the steps after it wait for it.
//
// A layout change is expand then contract (docs/DEPLOY.md, "Upgrades"): release N writes the new
// shape and reads both, and its step rewrites the old rows; release N+1 drops the reading of the
// old shape. So a step runs beside traffic, and every step is idempotent: a crash mid-way reruns it.
import type { Db } from 'mongodb';
import type { Logger } from '../observability/logger.ts';

export interface UpgradeStep {
  /** `<release>-<nnn>-<what>`, e.g. `1.1.0-001-webhook-request-method-upper-case`; sorted by release, then number. */
  name: string;
  run(db: Db): Promise<void>;
}

export interface UpgradeRecord {
  _id: string;
  state: 'done' | 'failed';
  tries: number;
  finishedAt: Date;
  /** The last failure's message; null once done. */
  error: string | null;
}

export interface UpgradeOptions {
  /** Who runs it (the process's job runner name), recorded with each claim. */
  runner: string;
  now?: () => Date;
  /** How long a claimed try may run before another instance may take the next try. */
  claimMs?: number;
  logger?: Pick<Logger, 'info' | 'error'>;
}

const NAME = /^(\d+)\.(\d+)\.(\d+)-(\d{3})-[a-z0-9-]+$/;

/** Release, then number: `1.10.0` after `1.9.0`. */
function order(a: UpgradeStep, b: UpgradeStep): number {
  const [x, y] = [NAME.exec(a.name)!, NAME.exec(b.name)!];
  for (let i = 1; i <= 4; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  return 0;
}

export function checkSteps(steps: UpgradeStep[]): UpgradeStep[] {
  const seen = new Set<string>();
  for (const step of steps) {
    if (!NAME.test(step.name)) throw new Error(`upgrade step ${step.name}: name it <release>-<nnn>-<what>, e.g. 1.1.0-001-move-x`);
    if (seen.has(step.name)) throw new Error(`upgrade step ${step.name} is registered twice`);
    seen.add(step.name);
  }
  return [...steps].sort(order);
}

/**
 * Runs the steps not yet recorded as done, in order. Returns the names this call ran to their end;
 * stops at the first step that fails (recorded) or that another instance is running now.
 */
export async function runUpgrades(db: Db, steps: UpgradeStep[], opts: UpgradeOptions): Promise<string[]> {
  const now = opts.now ?? (() => new Date());
  const claimMs = opts.claimMs ?? 10 * 60_000;
  const records = db.collection<UpgradeRecord>('upgrades');
  const claims = db.collection<{ _id: string; step: string; runner: string; at: Date }>('upgradeClaims');
  const ran: string[] = [];
  for (const step of checkSteps(steps)) {
    const record = await records.findOne({ _id: step.name });
    if (record?.state === 'done') continue;
    const tries = record?.tries ?? 0;
    const claimed = await claims.insertOne({ _id: `${step.name}#${tries + 1}`, step: step.name, runner: opts.runner, at: now() }).then(
      () => true,
      (err: { code?: number }) => {
        if (err.code === 11000) return false;
        throw err;
      },
    );
    if (!claimed) {
      // Another instance holds this try; past its claim time it died, and the next start takes the try after.
      const held = await claims.findOne({ _id: `${step.name}#${tries + 1}` });
      if (held && held.at.getTime() + claimMs < now().getTime()) await records.updateOne({ _id: step.name }, { $set: { state: 'failed', tries: tries + 1, finishedAt: now(), error: 'its runner stopped before the step ended' } }, { upsert: true });
      opts.logger?.info({ step: step.name }, 'upgrade step is being run by another instance');
      return ran;
    }
    try {
      await step.run(db);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await records.updateOne({ _id: step.name }, { $set: { state: 'failed', tries: tries + 1, finishedAt: now(), error } }, { upsert: true });
      opts.logger?.error({ err, step: step.name }, 'upgrade step failed; the next start tries it again');
      return ran;
    }
    await records.updateOne({ _id: step.name }, { $set: { state: 'done', tries: tries + 1, finishedAt: now(), error: null } }, { upsert: true });
    opts.logger?.info({ step: step.name }, 'upgrade step done');
    ran.push(step.name);
  }
  return ran;
}
