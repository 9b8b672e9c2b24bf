import { describe, expect, it } from 'vitest';
import { startInBackground } from '../../src/jobs/background.ts';

describe('startInBackground', () => {
  it('returns at once, and stop() aborts the task and waits until it has ended', async () => {
    const steps: string[] = [];
    const task = startInBackground(
      async (signal) => {
        steps.push('started');
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        await new Promise((r) => setImmediate(r));
        steps.push('ended');
      },
      () => steps.push('failed'),
    );
    expect(steps).toEqual(['started']);
    await task.stop();
    expect(steps).toEqual(['started', 'ended']);
  });

  it('hands a failure to onError, and stop() still resolves', async () => {
    const errors: unknown[] = [];
    const task = startInBackground(
      async () => {
        throw new Error('boom');
      },
      (err) => errors.push(err),
    );
    await task.stop();
    expect(errors).toEqual([new Error('boom')]);
  });
});
