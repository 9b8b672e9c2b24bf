// Sweeps keep to a share of the time (jobs/dutyCycle.ts): a slow run skips the runs due soon after
// it, a fast one never does, a failed one throttles nothing, and no skip outlasts MAX_SKIP_MS.
import { describe, expect, it } from 'vitest';
import { dutyCycled, MAX_SKIP_MS } from '../../src/jobs/dutyCycle.ts';
import { createLogger } from '../../src/observability/logger.ts';

function harness(takes: () => number, fails = () => false) {
  let now = 0;
  let runs = 0;
  const sweep = dutyCycled(
    'test.sweep',
    { logger: createLogger('silent') },
    async () => {
      runs++;
      now += takes();
      if (fails()) throw new Error('database away');
    },
    { share: 0.1, elapsedMs: () => now },
  );
  return {
    sweep,
    runs: () => runs,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('duty-cycled sweeps', () => {
  it('skips the runs that start within ten times a slow run, then runs again', async () => {
    const h = harness(() => 10_000);
    await h.sweep();
    h.at(60_000);
    await h.sweep();
    expect(h.runs()).toBe(1);
    h.at(99_999);
    await h.sweep();
    expect(h.runs()).toBe(1);
    h.at(100_000);
    await h.sweep();
    expect(h.runs()).toBe(2);
  });

  it('never skips a run that took milliseconds', async () => {
    const h = harness(() => 5);
    for (let minute = 0; minute < 5; minute++) {
      h.at(minute * 60_000);
      await h.sweep();
    }
    expect(h.runs()).toBe(5);
  });

  it('does not throttle after a failed run, however long it took', async () => {
    let failing = true;
    const h = harness(
      () => 30_000,
      () => failing,
    );
    await expect(h.sweep()).rejects.toThrow('database away');
    failing = false;
    h.at(60_000);
    await h.sweep();
    expect(h.runs()).toBe(2);
  });

  it('runs again after MAX_SKIP_MS however slow the last run was', async () => {
    const h = harness(() => 20 * 60_000);
    await h.sweep();
    h.at(MAX_SKIP_MS - 1);
    await h.sweep();
    expect(h.runs()).toBe(1);
    h.at(MAX_SKIP_MS);
    await h.sweep();
    expect(h.runs()).toBe(2);
  });
});
