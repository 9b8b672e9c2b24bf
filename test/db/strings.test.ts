// The service's connection reads strings without checking their UTF-8 again (src/db/connection.ts):
// what it wrote, any code point and any length, must read back exactly.
import fc from 'fast-check';
import mongoose, { Schema } from 'mongoose';
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';

const Texts = mongoose.model('StringsRoundTrip', new Schema({ _id: Number, texts: [String] }, { versionKey: false }));

describe('strings read through the service connection', () => {
  useTestRuntime();

  it('reads back every string as written, short and long, ASCII or not', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { minLength: 1, maxLength: 8 }), async (texts) => {
        const _id = n++;
        await Texts.collection.insertOne({ _id, texts } as never);
        expect(await Texts.findById(_id).lean()).toEqual({ _id, texts });
      }),
      { numRuns: 60 },
    );
  });
});
