// A list's total (src/db/count.ts): a filter of plain string equalities is counted by the `count`
// command, anything else by countDocuments' aggregation; both give what a `find` matches, capped to
// the limit asked for.
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { useTestRuntime } from '../helpers/harness.ts';
import { commandsSent } from '../helpers/dbReads.ts';
import { countMatching } from '../../src/db/count.ts';
import { trusted } from '../../src/db/connection.ts';

const Thing = mongoose.model('CountThing', new mongoose.Schema({ _id: String, group: String, kind: String, n: Number }, { versionKey: false }), 'countthings');

describe('countMatching', () => {
  useTestRuntime({ worker: false, monitorCommands: true });
  beforeAll(async () => {
    const docs = Array.from({ length: 30 }, (_, i) => ({ _id: `t${String(i).padStart(2, '0')}`, group: i % 3 ? 'a' : 'b', kind: i % 2 ? 'odd' : 'even', n: i }));
    await Thing.collection.insertMany(docs as never[]);
  });

  const counted = async (filter: Record<string, unknown>, limit?: number) => {
    let n = -1;
    const sent = (await commandsSent(async () => (n = await countMatching(Thing, filter, limit)))).filter((c) => c.endsWith(' countthings'));
    return { n, sent, found: await Thing.collection.countDocuments(filter) };
  };

  it('counts plain string equalities with the count command, exactly and up to a limit', async () => {
    for (const filter of [{ group: 'a' }, { group: 'b', kind: 'odd' }, { group: 'none' }]) {
      const { n, sent, found } = await counted(filter);
      expect(sent, JSON.stringify(filter)).toEqual(['count countthings']);
      expect(n, JSON.stringify(filter)).toBe(found);
    }
    expect(await counted({ group: 'a' }, 5)).toMatchObject({ n: 5, sent: ['count countthings'] });
    expect(await counted({ group: 'b' }, 11)).toMatchObject({ n: 10, sent: ['count countthings'] });
  });

  it('leaves an empty filter, operators and other values to countDocuments', async () => {
    for (const filter of [{}, { group: trusted({ $in: ['a', 'b'] }) }, { n: 3 }, { group: 'a', n: trusted({ $gte: 10 }) }]) {
      const { n, sent } = await counted(filter);
      expect(sent, JSON.stringify(filter)).toEqual(['aggregate countthings']);
      expect(n, JSON.stringify(filter)).toBe(await Thing.countDocuments(filter));
    }
    expect(await counted({}, 7)).toMatchObject({ n: 7, sent: ['aggregate countthings'] });
  });

  it('cannot be handed an operator through a string value', async () => {
    // What a request could send is a string: it is matched as one, never read as an operator.
    expect(await counted({ group: '{"$ne":null}' })).toMatchObject({ n: 0, sent: ['count countthings'] });
  });
});
