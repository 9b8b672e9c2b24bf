// The retry schedule of deliveries (spec "Delivery behaviour" 1): 5 attempts, waits of about
// 30 s, 1 min, 2 min and 4 min between them, each stretched by up to 10 % jitter so hooks that
// failed together do not retry in lockstep. Injected, so tests run the whole sequence in ms.
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 60_000, 120_000, 240_000];
export const DEFAULT_JITTER_RATIO = 0.1;

export interface RetrySchedule {
  /** Attempts per delivery (and per resend): one more than the number of waits. */
  attempts: number;
  /** Wait after the given failed attempt of a run (1-based) before the next one. */
  delayAfter(attemptInRun: number): number;
}

export function retrySchedule(delaysMs: number[] = DEFAULT_RETRY_DELAYS_MS, jitterRatio = DEFAULT_JITTER_RATIO, random: () => number = Math.random): RetrySchedule {
  if (!delaysMs.length || delaysMs.some((d) => !Number.isFinite(d) || d < 0)) throw new Error('retry delays must be a non-empty list of non-negative numbers');
  return {
    attempts: delaysMs.length + 1,
    delayAfter(attemptInRun) {
      const base = delaysMs[Math.min(Math.max(attemptInRun, 1), delaysMs.length) - 1]!;
      return Math.round(base * (1 + jitterRatio * random()));
    },
  };
}
