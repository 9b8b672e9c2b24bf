// Retrieval quality with no model: recall@1 and recall@3 (a right row among the first 1 or 3
// distinct rows ranked) for Relay's retriever, plain BM25 and two libraries, all in the same run,
// over the ai package's own docs (devDependency `ai-docs-corpus`, pinned to one version), chunked
// by the sync path's chunker. Also: how often the grounded reply cites a right row, and answer
// latency (retrieve + compose). Questions: tuning.json (66, the ones the ranking was tuned on,
// the first held-out set included once it was scored) and held-out-2.json (26, written before any
// tuning for it and scored only once the tuning was over). By default only the tuning set is scored;
// --held-out scores held-out-2 as well, in the same run. --ablate measures each choice.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { chunkMarkdown } from '../src/datasources/chunking.ts';
import { Bm25Segment, DEFAULT_RETRIEVER, type RetrieverOptions } from '../src/knowledge/bm25.ts';
import { searchSegments } from '../src/knowledge/search.ts';
import { terms } from '../src/knowledge/terms.ts';
import { createEmbedder, embedRows } from '../src/knowledge/embeddings.ts';
import { hybridSearch } from '../src/knowledge/fusion.ts';
import { joinVectors } from '../src/knowledge/vectors.ts';
import type { RowChunks } from '../src/knowledge/store.ts';
import { loadConfig } from '../src/config.ts';
import { composeGroundedReply } from '../src/chat/answerers/grounded.ts';
import { percentile } from './lib/load.ts';
import { machineLine } from './lib/runtime.ts';
import { PlainBm25 } from './lib/plainBm25.ts';

interface Question {
  q: string;
  rows: string[];
  paraphrased?: boolean;
}
interface Chunk {
  id: string;
  rowId: string;
  heading: string | null;
  text: string;
}
type Ranker = (query: string) => string[] | Promise<string[]>;

const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(import.meta.url);
const corpusDir = path.join(path.dirname(require.resolve('ai-docs-corpus/package.json')), 'docs');
const corpusVersion = (require('ai-docs-corpus/package.json') as { version: string }).version;
const load = (name: string) => (JSON.parse(fs.readFileSync(path.join(here, 'retrieval', `${name}.json`), 'utf8')) as { questions: Question[] }).questions;
const sets: Array<[string, Question[]]> = [['tuning', load('tuning')]];
if (process.argv.includes('--held-out')) sets.push(['held-out-2', load('held-out-2')]);

// The corpus: one row per markdown file, its id the path inside docs/.
const rows = fs
  .readdirSync(corpusDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.mdx?$/.test(f))
  .sort()
  .map((f) => ({ rowId: f.split(path.sep).join('/'), markdown: fs.readFileSync(path.join(corpusDir, f), 'utf8') }));
const chunksOf = (clean: boolean): Chunk[] =>
  rows.flatMap((r) => chunkMarkdown(r.markdown, undefined, clean).map((c, i) => ({ id: `${r.rowId}:${i}`, rowId: r.rowId, heading: c.heading, text: c.text })));
const chunks = chunksOf(true);
const uncleaned = chunksOf(false);
console.log(`retrieval benchmark — ${machineLine()}`);
console.log(`corpus: ai@${corpusVersion} docs, ${rows.length} rows, ${chunks.length} chunks`);

const CANDIDATES = 30;
const distinctRows = (rowIds: string[]) => [...new Set(rowIds)];

// Relay's retriever as configured, and with each choice measured on its own: added to main's
// retriever as it was before issue 18 (no cleaning, whole-chunk field, no identifier splitting, no
// section limit), and taken away from the default.
interface Variant {
  name: string;
  options: RetrieverOptions;
  clean: boolean;
}
const BEFORE: RetrieverOptions = { splitIdentifiers: false, headingWeight: null, onePerSection: false, rowShare: 0, rowWeight: 0 };
const choices: Array<[string, Partial<RetrieverOptions> & { clean?: boolean }]> = [
  ['cleaning', { clean: true }],
  ['identifier splitting', { splitIdentifiers: true }],
  ['heading field', { headingWeight: DEFAULT_RETRIEVER.headingWeight }],
  ['one chunk per section', { onePerSection: true }],
  ['row score', { rowWeight: DEFAULT_RETRIEVER.rowWeight }],
  ['best other chunk of the row', { rowShare: DEFAULT_RETRIEVER.rowShare }],
];
const variants: Variant[] = [{ name: 'relay retriever', options: DEFAULT_RETRIEVER, clean: true }];
if (process.argv.includes('--ablate')) {
  variants.push({ name: 'before issue 18', options: BEFORE, clean: false });
  for (const [name, change] of choices) {
    const { clean, ...options } = change;
    variants.push({ name: `  before + ${name}`, options: { ...BEFORE, ...options }, clean: clean ?? false });
    const off = Object.fromEntries(Object.keys(options).map((k) => [k, BEFORE[k as keyof RetrieverOptions]]));
    variants.push({ name: `  default - ${name}`, options: { ...DEFAULT_RETRIEVER, ...off }, clean: clean === undefined });
  }
}
const searchers = variants.map((v) => {
  const segment = new Bm25Segment('corpus', 1, v.options);
  for (const c of v.clean ? chunks : uncleaned) segment.add({ chunkId: c.id, rowId: c.rowId, heading: c.heading, text: c.text });
  return { name: v.name, search: (q: string) => searchSegments([segment], q, CANDIDATES) };
});
const relaySearch = searchers[0]!.search;

// Hybrid, when a real embedding server is given (OPENAI_BASE_URL, EMBEDDING_MODEL, OPENAI_API_KEY):
// every chunk embedded as a sync would, each question embedded, fused as searchKnowledge fuses.
const embeddingModel = process.env.EMBEDDING_MODEL;
const hybridRankers: Array<[string, Ranker]> = [];
if (embeddingModel && process.env.OPENAI_BASE_URL) {
  const embedder = createEmbedder({ OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY, EMBEDDING_MODEL: embeddingModel, EMBEDDING_BATCH_SIZE: 32, EMBEDDING_TIMEOUT_MS: 120_000,
    // The same floor the server applies (validated, with its default).
    EMBEDDING_MIN_SIMILARITY: loadConfig({ EMBEDDING_MIN_SIMILARITY: process.env.EMBEDDING_MIN_SIMILARITY }).EMBEDDING_MIN_SIMILARITY });
  const segment = new Bm25Segment('corpus', 1);
  const groups: RowChunks[] = rows.map((r) => ({ rowId: r.rowId, hash: '', chunks: chunks.filter((c) => c.rowId === r.rowId).map((c) => ({ heading: c.heading, text: c.text, tokens: 0 })) }));
  await embedRows(embedder, groups);
  for (const c of chunks) segment.add({ chunkId: c.id, rowId: c.rowId, heading: c.heading, text: c.text });
  // Ranked by the vectors as a sync stores them (12-bit), as the server ranks.
  segment.vectors = joinVectors(groups.filter((g) => g.chunks.length).map((g) => g.embedding ?? null));
  // One retry: an idle keep-alive connection the server closed meanwhile is not a measurement.
  const embedQuery = async (q: string) => (await embedder.embed([q]).catch(() => embedder.embed([q])))[0]!;
  hybridRankers.push([`relay hybrid (${embeddingModel})`, async (q) => distinctRows(hybridSearch([segment], [segment], q, await embedQuery(q), CANDIDATES, embedder.minSimilarity).map((h) => h.rowId))]);
} else {
  console.log('hybrid: not measured (set OPENAI_BASE_URL and EMBEDDING_MODEL to an embedding server)');
}

// Plain BM25 over the chunks as synced before issue 18 (uncleaned) and as synced now: the goal is
// measured against the better of the two.
const plainOf = (source: Chunk[]) => {
  const index = new PlainBm25<Chunk>();
  for (const c of source) index.add(c, c.heading ? `${c.heading}\n${c.text}` : c.text);
  return (q: string) => distinctRows(index.search(q, CANDIDATES).map((c) => c.rowId));
};

const mini = new MiniSearch<Chunk>({ fields: ['heading', 'text'], storeFields: ['rowId'] });
mini.addAll(chunks.map((c) => ({ ...c, heading: c.heading ?? '' })));

// The same libraries again with Relay's tokenizer (terms.ts) on both sides, so only their ranking differs.
const miniTerms = new MiniSearch<Chunk>({ fields: ['heading', 'text'], storeFields: ['rowId'], tokenize: (t) => terms(t), processTerm: (t) => t });
miniTerms.addAll(chunks.map((c) => ({ ...c, heading: c.heading ?? '' })));

const oramaDocs = chunks.map((c) => ({ id: c.id, heading: c.heading ?? '', text: c.text, rowId: c.rowId }));
const schema = { heading: 'string', text: 'string', rowId: 'string' } as const;
const orama = create({ schema });
await insertMultiple(orama, oramaDocs);
const oramaTerms = create({ schema, components: { tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: (t: string) => terms(t) } } });
await insertMultiple(oramaTerms, oramaDocs);
const oramaRank = (db: typeof orama) => async (q: string) =>
  distinctRows((await oramaSearch(db, { term: q, properties: ['heading', 'text'], limit: CANDIDATES })).hits.map((h) => h.document.rowId));

const rankers: Array<[string, Ranker]> = [
  ...searchers.map(({ name, search }): [string, Ranker] => [name, (q) => distinctRows(search(q).map((h) => h.rowId))]),
  ...hybridRankers,
  ['plain BM25 (k1 1.2, b 0.75)', plainOf(uncleaned)],
  ['plain BM25, cleaned chunks', plainOf(chunks)],
  ['minisearch (defaults)', (q) => distinctRows(mini.search(q).slice(0, CANDIDATES).map((r) => r.rowId as string))],
  ['minisearch (relay terms)', (q) => distinctRows(miniTerms.search(q).slice(0, CANDIDATES).map((r) => r.rowId as string))],
  ['minisearch (relay terms, heading x3)', (q) => distinctRows(miniTerms.search(q, { boost: { heading: 3 } }).slice(0, CANDIDATES).map((r) => r.rowId as string))],
  ['@orama/orama (defaults)', oramaRank(orama)],
  ['@orama/orama (relay terms)', oramaRank(oramaTerms)],
];

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1).padStart(5)} %`;
for (const [name, questions] of sets) {
  const groups: Array<[string, Question[]]> = [
    [`${name}, all ${questions.length}`, questions],
    [`${name}, paraphrased ${questions.filter((q) => q.paraphrased).length}`, questions.filter((q) => q.paraphrased)],
  ];
  for (const [label, group] of groups) {
    console.log(`${label}`);
    for (const [rankerName, rank] of rankers) {
      let at1 = 0;
      let at3 = 0;
      for (const question of group) {
        const ranked = await rank(question.q);
        if (question.rows.includes(ranked[0] ?? '')) at1++;
        if (ranked.slice(0, 3).some((r) => question.rows.includes(r))) at3++;
      }
      console.log(`  ${rankerName.padEnd(38)} recall@1 ${pct(at1, group.length)}   recall@3 ${pct(at3, group.length)}`);
    }
    for (const { name, search } of searchers) {
      const cited = group.filter((question) => composeGroundedReply(search(question.q)).used.some((h) => question.rows.includes(h.rowId))).length;
      console.log(`  ${`grounded reply cites a right row (${name.trim()})`.padEnd(58)} ${pct(cited, group.length)}`);
    }
  }
}

// Answer latency: retrieval and the grounded reply, as a /message does it, over every question.
const all = sets.flatMap(([, q]) => q);
const times: number[] = [];
for (let round = 0; round < 20; round++) {
  for (const question of all) {
    const started = process.hrtime.bigint();
    composeGroundedReply(relaySearch(question.q));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}
times.sort((a, b) => a - b);
console.log(`answer latency (retrieve + compose, ${chunks.length} chunks, ${times.length} answers): p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`);
