// Recurring sweeps scan whole collections on FerretDB, where a run grows with the data kept
// (docs/FERRETDB.md, "What the scans cost Relay's sweeps"). A sweep wrapped here keeps to a share
// of the time: after a run that took D, the runs due within D / share of its start are skipped, so a
// large embedded install sweeps less often instead of keeping the database busy with scans. Runs
// that take milliseconds (MongoDB, small collections) are never skipped.
import { performance } from 'node:perf_hooks';
import type { Logger } from '../observability/logger.ts';

export const SWEEP_SHARE = 0.1;
/** However slow a run was (one that waited out an outage, say), a sweep runs at least this often. */
export const MAX_SKIP_MS = 10 * 60_000;

/** `elapsedMs` is a monotonic timer of its own (not the app clock, which tests move by hours). */
export function dutyCycled(name: string, ctx: { logger: Logger }, run: () => Promise<unknown>, opts: { share?: number; elapsedMs?: () => number } = {}): () => Promise<void> {
  const share = opts.share ?? SWEEP_SHARE;
  const elapsedMs = opts.elapsedMs ?? (() => performance.now());
  // In this process only: the worker that ran the slow sweep skips the next ones; another worker
  // that picks one up runs it once and then throttles itself the same way.
  let nextAt = -Infinity;
  return async () => {
    const startedAt = elapsedMs();
    if (startedAt < nextAt) return;
    // A failed run (the database away, say) is no measure of the scan and throttles nothing.
    await run();
    const tookMs = elapsedMs() - startedAt;
    const skipMs = Math.min(tookMs / share, MAX_SKIP_MS);
    nextAt = startedAt + skipMs;
    if (skipMs > 60_000) ctx.logger.info({ job: name, tookMs: Math.round(tookMs), skipForMs: Math.round(skipMs) }, 'sweep was slow; its runs are skipped for a while');
  };
}
