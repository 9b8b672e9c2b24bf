// Relay's patch decodes stored documents with a cached schema and direct reads of plain values
// (ferretdb-patch/sjson/relay_sjson.go). What it reads back must be what FerretDB's own decoding
// reads: random documents (every scalar type, strings with escapes, quotes, control characters and
// any code point, nested documents and arrays, odd keys) go through two FerretDBs of the same build,
// one with the patch off (the oracle).
import fc from 'fast-check';
import { Binary, BSON, Double, Int32, Long, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { usePatchedAndOracle } from './oracle.ts';

const dbs = usePatchedAndOracle('decode');

// Strings the fast path must leave to encoding/json (escapes, control characters) beside plain ones.
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', 'a', 'é', '"', '\\', 'a"b\\c', '\n\t\u0000\u001f', '\u2028', '😀', '</script>', '{"a":1}', '1e3', 'true', 'null'),
);
// FerretDB refuses keys that start with `$` or hold a dot.
const key = fc.oneof(fc.constantFrom('a', 'b', 'é', 'a b', 'a"b', 'a\\b', 'x\ny', '😀', ''), fc.string({ unit: 'binary', maxLength: 6 })).filter((k) => !k.startsWith('$') && !k.includes('.'));
const scalar = fc.oneof(
  text,
  fc.integer().map((n) => new Int32(n)),
  fc.constantFrom(0, -1, 2147483647, -2147483648).map((n) => new Int32(n)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => Long.fromBigInt(n)),
  fc.double().map((n) => new Double(n)),
  fc.constantFrom(0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, -0, 123456789.125).map((n) => new Double(n)),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array({ maxLength: 8 }).map((b) => new Binary(b)),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
})).value;
const doc = fc.dictionary(key, value, { maxKeys: 6 });

/** Documents with a numeric _id (the driver types _id as an ObjectId by default). */
type NumberedDoc = { _id: number; [key: string]: unknown };
const canonical = (docs: Document[]) => BSON.EJSON.stringify(docs, { relaxed: false });

describe('decoding stored documents (the patch against FerretDB’s own decoding)', () => {
  it('reads back every document as FerretDB’s own decoding does', { timeout: 300_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 12 }), async (docs) => {
        const name = `docs${run++}`;
        const stored = docs.map((d, i) => ({ ...d, _id: i }));
        const outcomes = await Promise.all(
          [dbs.patched, dbs.oracle].map(async (client) => {
            const collection = client.db('decode').collection<NumberedDoc>(name);
            const refused: number[] = [];
            for (const d of stored) await collection.insertOne(d).catch(() => refused.push(d._id));
            // FerretDB stores some keys it cannot read back (a control character in a key): then both fail.
            const read = await collection.find({}).sort({ _id: 1 }).toArray().then(canonical, () => 'unreadable');
            return { refused, read };
          }),
        );
        expect(outcomes[0]).toEqual(outcomes[1]);
      }),
      { numRuns: 60 },
    );
  });

  it('reads documents of one shape with their own values, not a cached neighbour’s', async () => {
    const collection = dbs.patched.db('decode').collection<NumberedDoc>('shared');
    const docs = Array.from({ length: 50 }, (_, i) => ({ _id: i, name: `n${i}`, at: new Date(i), nested: { n: new Int32(i), tags: [`t${i}`] } }));
    await collection.insertMany(docs);
    expect(canonical(await collection.find({}).sort({ _id: 1 }).toArray())).toEqual(canonical(docs));
  });
});
