// A loaded index after a re-sync: the previous segment with the changed and removed rows masked out,
// plus a segment of the changed rows, answers as a segment built whole would; and the chunks' texts,
// kept deflated outside the heap, come back exactly.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { Bm25Segment } from '../../src/knowledge/bm25.ts';
import { searchSegments } from '../../src/knowledge/search.ts';
import { TextStore } from '../../src/knowledge/textStore.ts';
import { forgetSegment, liveSegments, searchKnowledge } from '../../src/knowledge/service.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';

const vocabulary = 'kettle toaster warranty boil water bread crumb tray steam lid filter scale descale limescale handle cord base switch light timer'.split(' ');
/** Row `i`'s text at version `v`: words picked by a small generator, so scores rarely tie. */
function rowText(i: number, v = 0): string {
  let seed = (i + 1) * 7919 + v * 104729;
  const next = () => (seed = (seed * 48271) % 2147483647);
  return Array.from({ length: 30 + (i % 17) }, () => vocabulary[next() % vocabulary.length]).join(' ') + ` item${i}v${v}`;
}
type Row = { rowId: string; hash: string; chunks: Array<{ heading: string | null; text: string }> };
const rowOf = (i: number, v = 0): Row => ({
  rowId: `row-${i}`,
  hash: `h${i}v${v}`.padEnd(22, 'x'),
  chunks: [
    { heading: `Item ${i}`, text: rowText(i, v) },
    { heading: `Item ${i} > Care`, text: rowText(i + 1000, v) },
  ],
});
function segmentOf(rows: Row[], run: number): Bm25Segment {
  const segment = new Bm25Segment('ds', run);
  for (const r of rows) segment.addRow(r.rowId, r.hash, r.chunks);
  segment.compact();
  return segment;
}
const questions = ['kettle warranty', 'descale the kettle with a filter', 'toaster crumb tray', 'item12v0', 'steam lid handle', 'item30v0'];

describe('a segment masked through a newer manifest', () => {
  it('scores and ranks as a segment built whole from the new rows, over three updates in a row', () => {
    let rows = Array.from({ length: 60 }, (_, i) => rowOf(i));
    const base = segmentOf(rows, 1);
    for (const run of [2, 3, 4]) {
      // Each run edits three rows, removes two and adds one; the base stays as built at run 1.
      const edited = new Set([run, run + 5, run + 20]);
      const removed = new Set([run + 30, run + 40]);
      rows = rows.filter((r) => !removed.has(Number(r.rowId.slice(4)))).map((r) => (edited.has(Number(r.rowId.slice(4))) ? rowOf(Number(r.rowId.slice(4)), run) : r));
      rows.push(rowOf(100 + run, run));
      const baseHashes = new Map([...base.rowsOf()].map(([row, rowId, hash]) => [rowId, { row, hash }]));
      const current = new Map(rows.map((r) => [r.rowId, r.hash]));
      const masked = [...baseHashes].filter(([rowId, { hash }]) => current.get(rowId) !== hash).map(([, { row }]) => row);
      const changed = rows.filter((r) => baseHashes.get(r.rowId)?.hash !== r.hash);
      const live = [base.withoutRows(run, masked), segmentOf(changed, run)];
      const whole = segmentOf(rows, run);
      expect(live.reduce((n, s) => n + s.size, 0)).toBe(whole.size);
      const answers = [...questions, `item${run}v${run}`, `item${run + 30}v0`].map((q) => searchSegments(live, q, 5));
      expect(answers).toEqual([...questions, `item${run}v${run}`, `item${run + 30}v0`].map((q) => searchSegments([whole], q, 5)));
      expect(answers.filter((hits) => hits.length).length).toBeGreaterThanOrEqual(6);
      expect(answers.at(-2)![0]!.rowId).toBe(`row-${run}`);
      expect(answers.at(-1)).toEqual([]);
    }
    // The edited row's old text is gone and its new text is found.
    const latest = [base.withoutRows(4, [...base.rowsOf()].filter(([, rowId]) => rowId === 'row-7').map(([row]) => row)), segmentOf([rowOf(7, 1)], 4)];
    expect(searchSegments(latest, 'item7v0', 5)).toEqual([]);
    expect(searchSegments(latest, 'item7v1', 5)[0]!.text).toBe(rowText(7, 1));
  });
});

describe('the text store', () => {
  it('gives back every text exactly, before and after compacting, across blocks', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `${i} ${'Naïve café 東京 🚀 '.repeat(i % 13)}${'x'.repeat(i % 700)}`);
    texts[5] = '';
    texts[17] = 'a lone surrogate \ud800 here';
    const store = new TextStore();
    for (const t of texts) store.add(t);
    const order = [2999, 0, 17, 5, 1500, 1499, 1501, 42];
    expect(order.map((i) => store.text(i))).toEqual(order.map((i) => texts[i]));
    store.compact();
    expect(texts.every((t, i) => store.text(i) === t)).toBe(true);
    expect(store.bytes).toBeLessThan(texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 2);
  });
});

describe('the index after re-syncs', () => {
  const rt = useTestRuntime();
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'pro' });
    api = publicApi(rt, tenant);
  });

  it('finds a changed row by its new text and not its old, drops a removed row, and answers as a whole build over five re-syncs', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', {
      dataSourceId: id,
      dataSourceRows: Array.from({ length: 60 }, (_, i) => ({ name: `item-${i}.md`, content: `# Item ${i}\n\n${rowText(i)}` })),
    }).expect(200);
    await syncAndWait(api, id);
    expect((await searchKnowledge(tenant.botId, 'item3v0'))[0]!.text).toContain('item3v0');
    const rows = new Map((await rowIds(api, id)).map((r) => [r.name, r.id]));
    // Parts after each re-sync: the first masks two more rows' chunks each time (one edited, one
    // removed); one part per re-sync holds its edited row, until the fifth part is merged into one.
    const parts = [[2, 0], [4, 0, 0], [6, 0, 0, 0], [8, 0], [10, 0, 0]];
    for (const v of [1, 2, 3, 4, 5]) {
      await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: rows.get(`item-${v}.md`), name: `item-${v}.md`, content: `# Item ${v}\n\n${rowText(v, v)}` }] }).expect(200);
      await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: rows.get(`item-${10 + v}.md`) }] }).expect(200);
      await syncAndWait(api, id);
      const found = await searchKnowledge(tenant.botId, `item${v}v${v}`);
      expect(found[0]!.text).toContain(`item${v}v${v}`);
      expect(found[0]!.rowId).toBe(rows.get(`item-${v}.md`));
      expect(await searchKnowledge(tenant.botId, `item${v}v0`)).toEqual([]);
      expect(await searchKnowledge(tenant.botId, `item${10 + v}v0`)).toEqual([]);
      // The index was updated, not rebuilt.
      expect((await liveSegments(tenant.botId)).map((s) => s.maskedChunks)).toEqual(parts[v - 1]);
    }
    expect((await searchKnowledge(tenant.botId, 'item20v0'))[0]!.text).toContain('item20v0');
    const questions = ['kettle warranty', 'descale the kettle with a filter', 'toaster crumb tray', 'item2v2 steam', 'handle cord light'];
    const updated = await Promise.all(questions.map((q) => searchKnowledge(tenant.botId, q, { limit: 10 })));
    expect(updated.every((hits) => hits.length > 0)).toBe(true);
    forgetSegment(id);
    expect(await Promise.all(questions.map((q) => searchKnowledge(tenant.botId, q, { limit: 10 })))).toEqual(updated);
    expect((await liveSegments(tenant.botId)).map((s) => s.maskedChunks)).toEqual([0]);
  });

  it('builds the source whole again once most of its rows are removed', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', {
      dataSourceId: id,
      dataSourceRows: Array.from({ length: 10 }, (_, i) => ({ name: `item-${i}.md`, content: `# Item ${i}\n\n${rowText(100 + i)}` })),
    }).expect(200);
    await syncAndWait(api, id);
    expect((await searchKnowledge(tenant.botId, 'item104v0'))[0]!.text).toContain('item104v0');
    const rows = await rowIds(api, id);
    await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows.slice(0, 6).map((r) => ({ id: r.id })) }).expect(200);
    await syncAndWait(api, id);
    const left = new Set(rows.slice(6).map((r) => r.id));
    const hits = await searchKnowledge(tenant.botId, 'kettle toaster warranty', { limit: 20 });
    const mine = hits.filter((h) => h.dataSourceId === id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((h) => left.has(h.rowId))).toBe(true);
    expect((await liveSegments(tenant.botId)).filter((s) => s.dataSourceId === id).map((s) => [s.size, s.maskedChunks])).toEqual([[4, 0]]);
  });
});
