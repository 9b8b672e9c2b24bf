// Holds sync jobs at the door: a module, listed after the real ones, that redefines
// datasources.sync with the same options and the same performSync, but waits until the test
// releases it. A data source then stays `syncing` for exactly as long as a test needs.
import type { DomainModule } from '../../src/module.ts';
import { modules } from '../../src/modules.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { SYNC_JOB, type SyncJobData } from '../../src/datasources/sync.ts';

export interface HeldSyncs {
  /** The service's modules plus the one that holds syncs. */
  modules: DomainModule[];
  /** Sync jobs that start from now on wait for release(). */
  hold(): void;
  release(): void;
  /** Sync jobs run to the end by the worker so far. */
  finished(): number;
}

export function heldSyncs(): HeldSyncs {
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  let finished = 0;
  const holder: DomainModule = {
    name: 'held-syncs',
    defineJobs(ctx) {
      const real = ctx.jobs.definitions[SYNC_JOB]!;
      ctx.jobs.define<SyncJobData>(
        SYNC_JOB,
        async (job) => {
          await gate;
          try {
            await performSync(ctx, job.attrs.data, { touch: () => job.touch() });
          } finally {
            finished++;
          }
        },
        { concurrency: real.concurrency, lockLifetime: real.lockLifetime },
      );
    },
  };
  return {
    modules: [...modules, holder],
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    finished: () => finished,
  };
}
