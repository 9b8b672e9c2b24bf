// Relay's patch applies find's plain top-level projections (and none) without deep copies of the
// documents (ferretdb-patch/projection/relay_projection.go). What a find returns must be what
// FerretDB's own projection returns: random documents and projections (inclusion, exclusion,
// `_id` kept or dropped, and the forms left to FerretDB: paths, new values) through two
// FerretDBs of the same build, one with the patch off (the oracle).
import fc from 'fast-check';
import { BSON, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { usePatchedAndOracle } from './oracle.ts';

const dbs = usePatchedAndOracle('projection');

const field = fc.constantFrom('a', 'b', 'c', 'é', 'n');
const value = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.constantFrom('x', 'y'), fc.integer(), { maxKeys: 2 }),
  fc.array(fc.oneof(fc.integer(), fc.dictionary(fc.constantFrom('x', 'y'), fc.integer(), { maxKeys: 2 })), { maxLength: 3 }),
);
// `_id` among the fields at any place: FerretDB stores it first.
const doc = fc.tuple(fc.dictionary(field, value, { maxKeys: 5 }), fc.nat(5)).map(([fields, at]) => ({ entries: Object.entries(fields), at }));
const flag = fc.constantFrom<0 | 1 | boolean>(0, 1, true, false);
const projection = fc.oneof(
  fc.constant({}),
  // plain fields, all included or all excluded, `_id` either way
  fc.tuple(fc.uniqueArray(field, { maxLength: 3 }), fc.boolean(), fc.option(flag, { nil: undefined })).map(([fields, include, id]) => ({
    ...Object.fromEntries(fields.map((f) => [f, include ? 1 : 0])),
    ...(id === undefined ? {} : { _id: id }),
  })),
  // left to FerretDB's own code
  fc.constantFrom<Document>({ 'a.x': 1 }, { 'b.x': 0 }, { a: 'literal' }, { _id: 'literal', a: 1 }),
);

const canonical = (docs: Document[]) => BSON.EJSON.stringify(docs, { relaxed: false });

describe('find projections (the patch against FerretDB’s own projection)', () => {
  it('returns what FerretDB’s own projection returns', { timeout: 300_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 6 }), projection, async (docs, shape) => {
        const name = `docs${run++}`;
        const stored = docs.map(({ entries, at }, i) => {
          const fields: Array<[string, unknown]> = [...entries];
          fields.splice(Math.min(at, fields.length), 0, ['_id', i]);
          return Object.fromEntries(fields);
        });
        const outcomes = await Promise.all(
          [dbs.patched, dbs.oracle].map(async (client) => {
            const collection = client.db('projection').collection(name);
            await collection.insertMany(stored);
            return collection
              .find({}, { projection: shape })
              .sort({ _id: 1 })
              .toArray()
              .then(canonical, (err: { code?: number }) => `refused ${err.code}`);
          }),
        );
        expect(outcomes[0]).toEqual(outcomes[1]);
      }),
      { numRuns: 80 },
    );
  });
});
