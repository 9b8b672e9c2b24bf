// The retry schedule of deliveries (spec "Delivery behaviour" 1): 5 attempts, waits of about
// 30 s, 1 min, 2 min and 4 min between them, each stretched by up to 10 % jitter so hooks that
// failed together do not retry in lockstep. Injected, so tests run the whole sequence in ms.
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 60_000, 120_000, 240_000];
export const DEFAULT_JITTER_RATIO = 0.1;

/** A hook's own schedule (issue 19): at most 10 attempts, at most 3 days of waits in all. */
export const MAX_ATTEMPTS = 10;
export const MAX_SCHEDULE_SECONDS = 3 * 24 * 3600;

export interface RetrySchedule {
  /** Attempts per delivery (and per resend): one more than the number of waits. */
  attempts: number;
  /** Wait after the given failed attempt of a run (1-based) before the next one. */
  delayAfter(attemptInRun: number): number;
  /** The same jitter over a hook's own waits (ms); null or undefined keeps this schedule. */
  withDelays(delaysMs: number[] | null | undefined): RetrySchedule;
}

export function retrySchedule(delaysMs: number[] = DEFAULT_RETRY_DELAYS_MS, jitterRatio = DEFAULT_JITTER_RATIO, random: () => number = Math.random): RetrySchedule {
  if (delaysMs.some((d) => !Number.isFinite(d) || d < 0)) throw new Error('retry delays must be non-negative numbers');
  const schedule: RetrySchedule = {
    attempts: delaysMs.length + 1,
    delayAfter(attemptInRun) {
      // No waits: a single attempt, so there is no next one to wait for.
      if (!delaysMs.length) return 0;
      const base = delaysMs[Math.min(Math.max(attemptInRun, 1), delaysMs.length) - 1]!;
      return Math.round(base * (1 + jitterRatio * random()));
    },
    withDelays: (own) => (own ? retrySchedule(own, jitterRatio, random) : schedule),
  };
  return schedule;
}

/** A hook's waits in seconds as the delivery row keeps them (ms); undefined when the hook has none. */
export const hookDelaysMs = (seconds: number[] | null | undefined): number[] | undefined => (seconds ? seconds.map((s) => Math.round(s * 1000)) : undefined);
