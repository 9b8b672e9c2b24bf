// Write batching (src/db/serialBatcher.ts): one batch in flight, items added meanwhile form the next
// batch, a batch never exceeds the maximum, and a flush that throws does not stop the batcher.
import { describe, expect, it, vi } from 'vitest';
import { SerialBatcher } from '../../src/db/serialBatcher.ts';

describe('SerialBatcher', () => {
  it('writes what arrives during a flush as the next batch, never more than the maximum at once', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new SerialBatcher<number>(3, async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
    });
    batcher.add(1);
    for (let i = 2; i <= 6; i++) batcher.add(i);
    expect(batcher.idle).toBe(false);
    release();
    await batcher.drained();
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    expect(batcher.idle).toBe(true);
  });

  it('goes on after a flush that throws, and tells when it is idle', async () => {
    const written: number[] = [];
    let idleCalls = 0;
    const batcher = new SerialBatcher<number>(
      10,
      async (items) => {
        if (items.includes(13)) throw new Error('database away');
        written.push(...items);
      },
      () => idleCalls++,
    );
    batcher.add(13);
    await batcher.drained();
    batcher.add(14);
    await batcher.drained();
    expect(written).toEqual([14]);
    expect(idleCalls).toBe(2);
  });

  it('holds items arriving close together for the gathering window, but sends one after a quiet spell at once', async () => {
    vi.useFakeTimers();
    try {
      const batches: number[][] = [];
      const batcher = new SerialBatcher<number>(3, async (items) => void batches.push(items), undefined, 2, 10);
      batcher.add(1);
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1]]);
      batcher.add(2);
      await vi.advanceTimersByTimeAsync(4);
      batcher.add(3);
      await vi.advanceTimersByTimeAsync(5);
      expect(batches).toEqual([[1]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1], [2, 3]]);
      // A full batch does not wait for the window.
      for (const i of [4, 5, 6]) batcher.add(i);
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1], [2, 3], [4, 5, 6]]);
      await vi.advanceTimersByTimeAsync(100);
      batcher.add(7);
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1], [2, 3], [4, 5, 6], [7]]);
      await batcher.drained();
    } finally {
      vi.useRealTimers();
    }
  });
});
