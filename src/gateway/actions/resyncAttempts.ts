// The cap on re-sync attempts per data source per clock hour, so a source that fails on every
// sync cannot loop (sync.failure → resync → sync.failure …). Each attempt inserts one of `cap`
// numbered slots for the hour; the unique _id makes the slots race-proof, even on FerretDB where
// a conditional `$inc` is not (docs/FERRETDB.md).
import { ResyncAttemptModel } from '../model.ts';
import { insertedOnce } from '../../db/insertNew.ts';

const HOUR_MS = 3_600_000;

/** Takes one attempt for `target` in the hour of `now`; false when all `cap` slots are taken. */
export async function takeResyncAttempt(target: string, cap: number, now: Date): Promise<boolean> {
  const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  const taken = await ResyncAttemptModel.countDocuments({ target, hour });
  for (let slot = taken + 1; slot <= cap; slot++) {
    if (await insertedOnce(ResyncAttemptModel.create({ _id: `${target}|${hour.toISOString()}|${slot}`, target, hour, takenAt: now }))) return true;
  }
  return false;
}
