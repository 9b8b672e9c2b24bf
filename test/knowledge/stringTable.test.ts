import { describe, expect, it } from 'vitest';
import { StringTable, TermTable } from '../../src/knowledge/stringTable.ts';

describe('string tables', () => {
  it('gives back each string, null and empty one as stored, and tells equal strings', () => {
    const values = ['row-1', '', null, 'Überschrift > Ünïcødé', '😀 emoji', 'row-1', null, 'a'.repeat(5000)];
    const table = StringTable.of(values);
    expect(table.length).toBe(values.length);
    expect(values.map((_, i) => table.at(i))).toEqual(values);
    values.forEach((v, i) => {
      if (v !== null) expect(table.equals(i, v)).toBe(true);
      expect(table.equals(i, `${v ?? ''}x`)).toBe(false);
    });
    expect(table.equals(0, 'row-')).toBe(false);
    expect(table.equals(2, '')).toBe(false);
    expect(StringTable.of([]).length).toBe(0);
  });

  it('finds every term of a vocabulary by its id and misses the others', () => {
    const ids = new Map<string, number>();
    for (let i = 0; i < 5000; i++) ids.set(i % 3 ? `term${i}` : String(i), ids.size);
    ids.set('', ids.size);
    ids.set('ﬁ', ids.size);
    const table = TermTable.of(ids);
    expect(table.size).toBe(ids.size);
    for (const [term, id] of ids) expect(table.get(term)).toBe(id);
    for (const miss of ['term0', 'term', '5000x', 'fi', ' ', 'term4999 ']) expect(table.get(miss)).toBeUndefined();
    expect(TermTable.of(new Map()).get('a')).toBeUndefined();
  });
});
