// Issue 39 "Recovery after a crash takes 63 to 180 s": with the default settings, what a killed
// process held (a job's lock, a first attempt's record, a gateway delivery or action) is handed to
// another process within 90 s. The bound is the sweep's grace plus its interval (docs/DEPLOY.md,
// "Recovery after a crash"). crash-mid-delivery.test.ts and gateway-crash.test.ts show it with
// kill -9, at settings scaled down to keep them short (QUICK_RECOVERY in support/cluster.ts).
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createWebhooksModule } from '../../src/webhooks/index.ts';
import { modules } from '../../src/modules.ts';

const webhooks = createWebhooksModule();

describe('recovery bound with the default settings', () => {
  // No JOB_LOCK_LIFETIME_MS and no sweep settings: the defaults an operator gets.
  const rt = useTestRuntime({ modules: modules.map((m) => (m.name === 'webhooks' ? webhooks : m)) });

  it('sweeps every 15 s with a grace of twice the 30 s job lock, so lost work is sent again within 75 s', async () => {
    expect(rt.config.JOB_LOCK_LIFETIME_MS).toBe(30_000);
    const sweeps = await rt.runtime.ctx.jobs.queryJobs({});
    const intervals = Object.fromEntries(
      sweeps.jobs.filter((j) => ['webhooks.sweep', 'gateway.sweep', 'events.redispatch'].includes(j.name)).map((j) => [j.name, j.repeatInterval]),
    );
    expect(intervals).toEqual({ 'webhooks.sweep': '15 seconds', 'gateway.sweep': '15 seconds', 'events.redispatch': '15 seconds' });
    const grace = webhooks.state().sweepAfterMs;
    expect(grace).toBe(2 * rt.config.JOB_LOCK_LIFETIME_MS);
    // A job locked by a dead worker waits for its lock; a first attempt or a gateway item waits
    // for the grace, then for the next sweep.
    expect(rt.config.JOB_LOCK_LIFETIME_MS + rt.config.JOB_PROCESS_EVERY_MS).toBeLessThanOrEqual(90_000);
    expect(grace + 15_000).toBeLessThanOrEqual(90_000);
  });
});
