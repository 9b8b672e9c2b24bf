// Relay's patch checks for float NaN only in what clients send, no longer in every reply
// (ferretdb-patch/nan/relay_nan.go). A message with a NaN must still be refused as FerretDB's
// own check refuses it (the oracle: the same build with the patch off), and the connection must
// serve the next command.
import { Double } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { usePatchedAndOracle } from './oracle.ts';

const dbs = usePatchedAndOracle('nan');

const outcome = (p: Promise<unknown>) => p.then(() => 'accepted', () => 'refused');

describe('NaN in client messages (the patch against FerretDB’s own check)', () => {
  it('refuses a NaN in an insert and in a filter as FerretDB does, and serves the next command', { timeout: 60_000 }, async () => {
    const outcomes = await Promise.all(
      [dbs.patched, dbs.oracle].map(async (client) => {
        const collection = client.db('nan').collection<{ _id: number; x: unknown }>('values');
        const inserted = await outcome(collection.insertOne({ _id: 1, x: new Double(NaN) }));
        const nested = await outcome(collection.insertOne({ _id: 2, x: [{ y: new Double(NaN) }] }));
        const filtered = await outcome(collection.find({ x: new Double(NaN) }).toArray());
        await collection.insertOne({ _id: 3, x: 1.5 });
        const stored = await collection.find({}).toArray();
        return { inserted, nested, filtered, stored };
      }),
    );
    expect(outcomes[0]).toEqual({ inserted: 'refused', nested: 'refused', filtered: 'refused', stored: [{ _id: 3, x: 1.5 }] });
    expect(outcomes[0]).toEqual(outcomes[1]);
  });
});
