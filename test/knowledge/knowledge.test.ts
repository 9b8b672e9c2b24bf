// The knowledge index: heading-aware chunks with cl100k_base token counts, BM25 ranking over the
// bot's synced content only, incremental re-syncs, and deletion that takes effect at once.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getEncoding } from 'js-tiktoken';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { chunkMarkdown } from '../../src/datasources/chunking.ts';
import { searchKnowledge } from '../../src/knowledge/service.ts';
import { KnowledgePackModel } from '../../src/knowledge/model.ts';
import { terms } from '../../src/knowledge/terms.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';

describe('chunking', () => {
  it('follows headings and carries the heading path', () => {
    const chunks = chunkMarkdown('Intro text.\n\n# Setup\n\nRead this.\n\n## Install\n\nRun npm.\n\n# Usage\n\nCall it.');
    expect(chunks.map((c) => [c.heading, c.text])).toEqual([
      [null, 'Intro text.'],
      ['Setup', '# Setup\n\nRead this.'],
      ['Setup > Install', '## Install\n\nRun npm.'],
      ['Usage', '# Usage\n\nCall it.'],
    ]);
  });

  it('does not take a # line inside a code fence for a heading', () => {
    const chunks = chunkMarkdown('# Shell\n\n```sh\n# a comment\necho hi\n```\n');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.heading).toBe('Shell');
  });

  it('takes a line underlined with === or --- for a heading, as CommonMark does, and a rule or a list item above --- for no heading', () => {
    const chunks = chunkMarkdown('History\n=======\n\n4.2.0 / 2024-01-02\n------------------\n\n  * Fix a crash\n\nA note.\n\n---\n\n- an item\n---\n\n```\ncode\n---\n```');
    expect(chunks.map((c) => c.heading)).toEqual(['History > 4.2.0 / 2024-01-02']);
    expect(chunks[0]!.text).toBe('4.2.0 / 2024-01-02\n------------------\n\n  * Fix a crash\n\nA note.\n\n---\n\n- an item\n---\n\n```\ncode\n---\n```');
    // Two lines of a paragraph over --- are no heading (the whole paragraph would be, in CommonMark).
    expect(chunkMarkdown('# Top\n\nOne line\nand another\n---\nEnd.').map((c) => c.heading)).toEqual(['Top']);
    expect(chunkMarkdown('# Top\nSub\n---\nBody.').map((c) => [c.heading, c.text])).toEqual([['Top > Sub', 'Sub\n---\nBody.']]);
  });

  it('reads a heading as its text: links by their text, badges and HTML anchors dropped, a type like Promise<Result> and code spans kept', () => {
    const md = [
      '# dotenv [![NPM version](https://img.shields.io/npm/v/dotenv.svg?style=flat)](https://www.npmjs.com/package/dotenv)',
      '## [4.16.5](https://github.com/OptimalBits/bull/compare/v4.16.4...v4.16.5) (2024-12-18)',
      'Fixed a leak.',
      '## <a name="api"></a>run(options) => Promise<Result>',
      'Runs it.',
      '## .filter( selector ) <br /> .filter( fn ) and [Wiki](https://en.wikipedia.org/wiki/Filter_(software) "filters")',
      'Filters.',
      '## Case: I am using an `<a>` tag, or `[text](url)` in code',
      'Code spans are literal.',
    ].join('\n\n');
    expect(chunkMarkdown(md).map((c) => c.heading)).toEqual([
      'dotenv > 4.16.5 (2024-12-18)',
      'dotenv > run(options) => Promise<Result>',
      'dotenv > .filter( selector ) .filter( fn ) and Wiki',
      'dotenv > Case: I am using an `<a>` tag, or `[text](url)` in code',
    ]);
    // The text keeps its markdown: only the heading path is read as text.
    expect(chunkMarkdown(md)[0]!.text).toContain('](https://github.com/OptimalBits/bull/compare/');
  });

  it('reads a heading of tens of thousands of brackets, anchors or blanks between words as text, closing #s dropped', () => {
    // Each of these lines took seconds to minutes when a pattern backtracked over it (within the test's timeout now).
    const headingOf = (line: string) => chunkMarkdown(`${line}\n\nBody.`)[0]!.heading;
    expect(headingOf(`# ${'['.repeat(100_000)}`)).toBe('['.repeat(100_000));
    expect(headingOf(`# ${'<a '.repeat(30_000)}`)).toBe('<a '.repeat(30_000).trim());
    expect(headingOf(`# x${' \t'.repeat(200_000)}y ##`)).toBe('x y');
    expect(headingOf('## Title ##')).toBe('Title');
    expect(headingOf('# C# and F#')).toBe('C# and F#');
  });

  it('cuts long sections at paragraph boundaries within the size limit, losing no text', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`.trim());
    const chunks = chunkMarkdown(`# Long\n\n${paragraphs.join('\n\n')}`, 600);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(600);
    expect(chunks.every((c) => c.heading === 'Long')).toBe(true);
    expect(chunks.map((c) => c.text).join(' ').replace(/\s+/g, ' ')).toContain(paragraphs[11]);
  });

  it('counts tokens exactly as js-tiktoken cl100k_base does', () => {
    const encoding = getEncoding('cl100k_base');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 400 }), (text) => {
        for (const c of chunkMarkdown(text)) expect(c.tokens).toBe(encoding.encode(c.text).length);
      }),
      { numRuns: 200 },
    );
    const sample = '# Café\n\nNaïve façade — 東京 🚀 `code()` [link](https://example.com) <|endoftext|>.';
    expect(chunkMarkdown(sample).reduce((n, c) => n + c.tokens, 0)).toBe(
      chunkMarkdown(sample).reduce((n, c) => n + encoding.encode(c.text, [], []).length, 0),
    );
  });

  it('stems plural and past forms together and drops stop words', () => {
    expect(terms('The blenders were returned')).toEqual(['blender', 'return']);
    expect(terms('Zucchini blender return')).toEqual(['zucchini', 'blender', 'return']);
    // The plural goes before -ing or -ed, so a plural of either meets its singular.
    expect(terms('settings setting')).toEqual(['sett', 'sett']);
    expect(terms('caches cached strings string')).toEqual(['cach', 'cach', 'str', 'str']);
  });

  it('keeps a stop word written as a method or a call, and drops it in prose', () => {
    expect(terms('What does .has() filter by?')).toEqual(['has', 'filter']);
    expect(terms('Use is(selector) to test it')).toEqual(['use', 'is', 'selector', 'test']);
    expect(terms('The list has items and is long')).toEqual(['list', 'item', 'long']);
  });
});

describe('knowledge search', () => {
  const rt = useTestRuntime();
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'pro' });
    api = publicApi(rt, tenant);
  });

  it('ranks the chunk that matches best first and reports its row and data source', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', {
      dataSourceId: id,
      dataSourceRows: [
        { name: 'kettle.md', content: '# Kettles\n\nOur kettles boil water.\n\n## Warranty\n\nQuasar kettles carry a warranty of seven years.' },
        { name: 'toaster.md', content: '# Toasters\n\nToasters brown bread. The warranty on toasters is one year.' },
      ],
    }).expect(200);
    expect(await searchKnowledge(tenant.botId, 'quasar kettle warranty')).toEqual([]);
    await syncAndWait(api, id);
    const hits = await searchKnowledge(tenant.botId, 'quasar kettle warranty', { limit: 3 });
    const kettle = (await rowIds(api, id)).find((r) => r.name === 'kettle.md')!;
    expect(hits[0]).toMatchObject({ rowId: kettle.id, dataSourceId: id, heading: 'Kettles > Warranty' });
    expect(hits[0]!.text).toContain('seven years');
    expect(hits.every((h) => h.score > 0)).toBe(true);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    expect(await searchKnowledge(tenant.botId, 'the and of')).toEqual([]);
    const other = await createTenant();
    expect(await searchKnowledge(other.botId, 'quasar kettle warranty')).toEqual([]);
  });

  it('shows edits and row deletions only after the next sync, and drops packs nobody uses', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'Gizmos are purple.' }, { name: 'b', content: 'Doohickeys are orange.' }] }).expect(200);
    await syncAndWait(api, id);
    const [a, b] = await rowIds(api, id);
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: a!.id, name: 'a', content: 'Gizmos are green.' }] }).expect(200);
    await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: b!.id }] }).expect(200);
    expect((await searchKnowledge(tenant.botId, 'gizmos'))[0]!.text).toBe('Gizmos are purple.');
    expect(await searchKnowledge(tenant.botId, 'doohickeys')).toHaveLength(1);
    await syncAndWait(api, id);
    expect((await searchKnowledge(tenant.botId, 'gizmos'))[0]!.text).toBe('Gizmos are green.');
    expect(await searchKnowledge(tenant.botId, 'doohickeys')).toEqual([]);
    expect(await KnowledgePackModel.countDocuments({ dataSourceId: id })).toBe(1);
  });

  it('stops answering from a deleted data source at once', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'x', content: 'Flibbertigibbets live in the attic.' }] }).expect(200);
    await syncAndWait(api, id);
    expect(await searchKnowledge(tenant.botId, 'flibbertigibbet')).toHaveLength(1);
    await api('delete', '/data-sources', { dataSourceId: id }).expect(200);
    expect(await searchKnowledge(tenant.botId, 'flibbertigibbet')).toEqual([]);
    expect(await KnowledgePackModel.countDocuments({ dataSourceId: id })).toBe(0);
  });

  it('keeps every live chunk findable across many small re-syncs (pack compaction)', async () => {
    const id = await createDataSource(api);
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `r${i}`, content: `Item token${i} is here.` }));
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows }).expect(200);
    await syncAndWait(api, id);
    const ids = await rowIds(api, id);
    for (let round = 0; round < 4; round++) {
      const changed = ids.slice(round * 5, round * 5 + 5).map((r, j) => ({ id: r.id, name: r.name, content: `Item token${round * 5 + j} changed in round${round}.` }));
      await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: changed }).expect(200);
      await syncAndWait(api, id);
    }
    for (let i = 0; i < 30; i++) {
      const hits = await searchKnowledge(tenant.botId, `token${i}`);
      expect(hits, `token${i}`).toHaveLength(1);
    }
    expect((await searchKnowledge(tenant.botId, 'round3')).length).toBe(5);
  });
});
