// A cursor read one batch ahead (src/db/batchesAhead.ts): every document once, in order, the next
// batch already requested while the caller works on the current one, and the cursor closed when
// the caller stops early.
import { describe, expect, it, vi } from 'vitest';
import mongoose, { Schema } from 'mongoose';
import { batchesAhead } from '../../src/db/batchesAhead.ts';
import { useTestRuntime } from '../helpers/harness.ts';

const Doc = mongoose.model('BatchesAheadDoc', new Schema({ _id: String, n: Number }, { versionKey: false }));

describe('batchesAhead', () => {
  useTestRuntime();

  it('yields every document once, in batches of the cursor batch size', async () => {
    await Doc.insertMany(Array.from({ length: 25 }, (_, n) => ({ _id: `d${String(n).padStart(2, '0')}`, n })));
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const batch of batchesAhead(Doc.collection.find<{ n: number }>({}, { batchSize: 10, sort: { _id: 1 } }))) {
      sizes.push(batch.length);
      seen.push(...batch.map((d) => d.n));
    }
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, n) => n));
  });

  it('has the next batch on its way before the caller asks for it, and closes the cursor on an early stop', async () => {
    await Doc.insertMany(Array.from({ length: 30 }, (_, n) => ({ _id: `e${String(n).padStart(2, '0')}`, n })));
    const cursor = Doc.collection.find<{ n: number }>({}, { batchSize: 10 });
    for await (const batch of batchesAhead(cursor)) {
      expect(batch).toHaveLength(10);
      // Nothing more is asked of the generator here: the second batch arrives on its own.
      await vi.waitFor(() => expect(cursor.bufferedCount()).toBe(10), { timeout: 10_000 });
      break;
    }
    // The server still held a third batch: closing the cursor killed it there.
    expect(cursor.killed).toBe(true);
  });
});
