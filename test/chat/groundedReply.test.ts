// The reply without a model (issue 18): clean markdown, the section's heading first, the passage cut
// at a list item or sentence, the row named; up to two more passages when they score close to the best.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { CONFIDENCE, NO_ANSWER, selectPassages } from '../../src/chat/answerers/grounded.ts';
import { cutBody, PASSAGE_LIMIT } from '../../src/chat/answerers/passage.ts';
import type { KnowledgeHit } from '../../src/knowledge/service.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';

const options = Array.from({ length: 12 }, (_, i) => `* \`option${i}\` sets the behaviour number ${i} of the write, as described above.`);
const FS_DOC = [
  '---',
  'title: File system',
  '---',
  '# File system',
  '',
  '## fs.writeFile(file, data)',
  '<!-- YAML',
  'added: v0.1.29',
  'changes:',
  '  - version: v15.0.0',
  '-->',
  '',
  'Asynchronously writes data to a file, replacing the file if it already exists. See [the guide][].',
  '',
  ...options,
  '',
  '[the guide]: https://example.com/guide',
].join('\n');

describe('grounded replies over HTTP', () => {
  const rt = useTestRuntime();
  let api: ReturnType<typeof publicApi>;
  let dataSourceId: string;

  beforeAll(async () => {
    api = publicApi(rt, await createTenant());
    dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'fs.md', content: FS_DOC }] }).expect(200);
    expect((await syncAndWait(api, dataSourceId)).state).toBe('synced');
  });

  it('puts the heading first, drops comments and link definitions, cuts at a list item and names the row', async () => {
    const res = await api('post', '/message', { message: 'How do I write a file?' }).expect(200);
    const reply: string = res.body.response;
    expect(reply.startsWith('**File system › fs.writeFile(file, data)**\n\nAsynchronously writes data to a file')).toBe(true);
    expect(reply).not.toMatch(/<!--|YAML|added: v0|\[the guide\]:|title: File system/);
    expect(reply.endsWith('\n\n_Source: fs.md_')).toBe(true);
    // Every quoted list item is whole, and the cut left some out.
    const items = reply.split('\n').filter((l) => l.startsWith('* '));
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(options.length);
    for (const item of items) expect(options).toContain(item);
    const [row] = await rowIds(api, dataSourceId);
    expect(res.body.sources).toEqual([{ rowId: row!.id, dataSourceId }]);
  });

  it('says it does not know when most of the question is words the documents never use', async () => {
    // "write" and "file" match the row; "kubernetes", "helm" and "charts" are in no chunk.
    const res = await api('post', '/message', { message: 'How do I write a file to Kubernetes with Helm charts?' }).expect(200);
    expect(res.body).toMatchObject({ response: NO_ANSWER, sources: [] });
  });

  it('still says it does not know when nothing matches', async () => {
    const res = await api('post', '/message', { message: 'quasar kettle warranty' }).expect(200);
    expect(res.body).toMatchObject({ response: NO_ANSWER, sources: [] });
  });
});

describe('passages', () => {
  const hit = (rowId: string, score: number, text: string): KnowledgeHit => ({ chunkId: `${rowId}:0`, rowId, dataSourceId: 'ds', heading: null, score, text });

  it('adds a second and third passage when they score at least half the best, whatever words they share with it', () => {
    const best = hit('a', 10, 'Returns are accepted within 30 days of delivery for blenders.');
    const similar = hit('b', 9, 'Returns are accepted within 30 days of delivery for blenders and kettles.');
    const adds = hit('c', 8, 'Refunds reach your card five working days after the parcel arrives.');
    const fourth = hit('d', 7, 'Gift cards never expire and can pay for shipping.');
    expect(selectPassages([best, similar, adds, fourth]).map((h) => h.rowId)).toEqual(['a', 'b', 'c']);
    expect(selectPassages([])).toEqual([]);
  });

  it('stops at the first further passage that scores under half the best', () => {
    const best = hit('a', 10, 'Returns are accepted within 30 days of delivery for blenders.');
    const weak = hit('b', 4.9, 'Refunds reach your card five working days after the parcel arrives.');
    const weaker = hit('c', 4, 'Gift cards never expire and can pay for shipping.');
    expect(selectPassages([best, weak, weaker]).map((h) => h.rowId)).toEqual(['a']);
  });

  it('skips a further passage that repeats the ones before it when a share of new words is asked for', () => {
    const best = hit('a', 10, 'Returns are accepted within 30 days of delivery for blenders.');
    const similar = hit('b', 9, 'Returns are accepted within 30 days of delivery for blenders and kettles.');
    const adds = hit('c', 8, 'Refunds reach your card five working days after the parcel arrives.');
    expect(selectPassages([best, similar, adds], { ...CONFIDENCE, newWords: 0.5 }).map((h) => h.rowId)).toEqual(['a', 'c']);
  });

  it('never cuts inside a code block, and cuts prose at a sentence end', () => {
    const code = ['```js', ...Array.from({ length: 80 }, (_, i) => `console.log(${i});`), '```'].join('\n');
    const cut = cutBody(code);
    expect(cut.length).toBeLessThanOrEqual(PASSAGE_LIMIT + 3);
    expect(cut.startsWith('```js\nconsole.log(0);')).toBe(true);
    expect(cut.endsWith('\n```')).toBe(true);
    const prose = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} ends here.`).join(' ');
    expect(cutBody(prose)).toMatch(/^Sentence number 0 .* ends here\.$/);
    expect(cutBody(prose).length).toBeLessThanOrEqual(PASSAGE_LIMIT);
  });
});
