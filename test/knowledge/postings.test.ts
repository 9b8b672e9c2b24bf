// Posting lists as varint bytes (postings.ts): every entry reads back as written, before and after
// compacting, whatever the sizes of the keys and tfs and the direction the keys move.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PostingLists, PostingReader } from '../../src/knowledge/postings.ts';

const entry = fc.tuple(fc.integer({ min: 0, max: 3_000_000 }), fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 70_000 }));

describe('posting lists', () => {
  it('read back every entry of every term as written, growing and compacted', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), entry), { maxLength: 400 }), (writes) => {
        const ids = new Map<string, number>();
        const lists = new PostingLists(ids);
        const expected = new Map<string, number[][]>();
        for (const [t, [key, inHeading, inBody]] of writes) {
          const term = `t${t}`;
          if (!ids.has(term)) ids.set(term, ids.size);
          lists.append(ids.get(term)!, key, inHeading, inBody);
          expected.set(term, [...(expected.get(term) ?? []), [key, inHeading, inBody]]);
        }
        const read = () =>
          new Map(
            [...expected.keys()].map((term) => {
              const out: number[][] = [];
              for (const r = new PostingReader().reset(lists.list(term)!); r.next(); ) out.push([r.key, r.inHeading, r.inBody]);
              expect(lists.list(term)!.count).toBe(out.length);
              return [term, out];
            }),
          );
        expect(read()).toEqual(expected);
        lists.compact();
        expect(read()).toEqual(expected);
        expect(lists.list('absent')).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});
