// Retrieval quality with no model, over several corpora of different kinds, each the markdown docs
// of a pinned npm package (devDependencies `*-docs-corpus`, or tarballs fetched on first use), chunked as a sync chunks them. Per
// corpus: recall@1 and @3 (a right section among the first 1 or 3 distinct sections ranked), the
// recall at the passages the grounded answerer actually cites (its own selection, composeGroundedReply),
// plain BM25 (k1 1.2, b 0.75) @1 and @3 on the same chunks, the paraphrased subset apart, and how
// often the reply is "I don't know" on questions the docs do not answer (and on those they do).
//   --corpora ai,commander       which corpora (default: every tuning corpus, the held-out ones left out)
//   --held-out                   the held-out corpora too (score them once, at the end)
//   --ablate <method>[,…]|all    each method turned the other way from the default, one at a time
//   --options '{"feedback":true}' retriever options over the defaults, for every variant
//   --answerer '{"answerability":null}' the answerer's CONFIDENCE otherwise, as one more variant (null: the hand rules,
//                                their figures `minCoverage`, `maxUnknown`, `nameCoverage`; citing: `relativeScore`, `newWords`)
//   --fit                        refit the answerability model (answerability.ts) over the tuning corpora run, print it, and
//                                give each corpus's figures with the model fitted without it (leave one corpus out)
//   --embeddings                 hybrid too, with the server's EMBEDDING_MODEL, OPENAI_BASE_URL, EMBEDDING_MIN_SIMILARITY…
//   --check                      only check that every expected section exists in its corpus
import { Bm25Segment, DEFAULT_RETRIEVER, type RetrieverOptions } from '../src/knowledge/bm25.ts';
import { searchSegments, type ScoredChunk } from '../src/knowledge/search.ts';
import { embedderFor, embeddingText, joinArrays, type Embedder } from '../src/knowledge/embeddings.ts';
import { hybridSearch } from '../src/knowledge/fusion.ts';
import { joinVectors } from '../src/knowledge/vectors.ts';
import { quantiseUnit } from '../src/knowledge/vectorCodec.ts';
import { loadConfig } from '../src/config.ts';
import { composeGroundedReply, CONFIDENCE, type Confidence } from '../src/chat/answerers/grounded.ts';
import { answerability, answerFeatures, type AnswerabilityModel } from '../src/chat/answerers/answerability.ts';
import { machineLine } from './lib/runtime.ts';
import { PlainBm25 } from './lib/plainBm25.ts';
import { flag } from './lib/args.ts';
import { CORPORA, hits, loadCorpus, matches, sectionsOf, type Chunk, type Question } from './lib/retrievalCorpora.ts';

const CANDIDATES = 30;

/** Each retrieval method --ablate can turn: a change to the default retriever. */
const METHODS: Record<string, Partial<RetrieverOptions>> = {
  'identifier splitting': { splitIdentifiers: !DEFAULT_RETRIEVER.splitIdentifiers },
  'heading field': { headingWeight: DEFAULT_RETRIEVER.headingWeight === null ? 3 : null },
  'one chunk per section': { onePerSection: !DEFAULT_RETRIEVER.onePerSection },
  'row score': { rowWeight: DEFAULT_RETRIEVER.rowWeight ? 0 : 1 },
  'best other chunk of the row': { rowShare: DEFAULT_RETRIEVER.rowShare ? 0 : 0.5 },
  'question words': { questionWords: !DEFAULT_RETRIEVER.questionWords },
  feedback: { feedback: !DEFAULT_RETRIEVER.feedback },
  'coverage rerank': { coverageRerank: DEFAULT_RETRIEVER.coverageRerank ? 0 : 1 },
  'character n-grams': { ngramWeight: DEFAULT_RETRIEVER.ngramWeight ? 0 : 1.5 },
  'judged on exact words': { wordEvidence: !DEFAULT_RETRIEVER.wordEvidence },
};
const PASSAGE_SIZES = [800, 3000]; // the chunker's (a sync's) choice: measured by re-chunking, not a retriever option

const newTally = () => ({ at1: 0, at3: 0, cited: 0, citedPassages: 0, declined: 0 });

/** --fit, per question: the model's inputs (null: no hit), whether it names what no chunk holds (refused first), is */
/** answerable, refused by the hand rules, and answered by a cited passage when nothing is refused. */
interface Sample { x: number[] | null; named: boolean; answerable: boolean; ruled: boolean; hit: boolean }
const fit = process.argv.includes('--fit');
const fitted = new Map<string, Sample[]>();
const RULES: Confidence = { ...CONFIDENCE, answerability: null };
const OPEN: Confidence = { ...CONFIDENCE, answerability: { bias: 1, weights: [], threshold: 0 } };
/** The L2 penalty of the fit (leave-one-corpus-out over the 21 tuning corpora chose 0.1 among 0.03-10). */
const LAMBDA = 0.1;

/**
 * Logistic regression by Newton's method, unanswerable questions weighted up to as many as the
 * answerable ones; the threshold refuses no more answerable questions than the hand rules did.
 */
function fitModel(samples: Sample[]): AnswerabilityModel {
  const rows = samples.filter((s) => s.x);
  const answerable = rows.filter((s) => s.answerable).length;
  const d = rows[0]!.x!.length + 1;
  let beta = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 30; iter++) {
    const m = Array.from({ length: d }, (_, i) => Array.from({ length: d + 1 }, (_, j) => (i === j && i ? LAMBDA : j === d && i ? LAMBDA * beta[i]! : 0)));
    for (const s of rows) {
      const x = [1, ...s.x!];
      const p = 1 / (1 + Math.exp(-x.reduce((n, v, i) => n + v * beta[i]!, 0)));
      const w = s.answerable ? 1 : answerable / (rows.length - answerable);
      x.forEach((v, i) => x.forEach((u, j) => (m[i]![j]! += w * p * (1 - p) * v * u)));
      x.forEach((v, i) => (m[i]![d]! += w * (p - Number(s.answerable)) * v));
    }
    // Gauss-Jordan elimination: m[i][d] / m[i][i] is then the Newton step.
    for (let c = 0; c < d; c++) for (let r = 0; r < d; r++) if (r !== c) for (let k = d, f = m[r]![c]! / m[c]![c]!; k >= c; k--) m[r]![k]! -= f * m[c]![k]!;
    beta = beta.map((b, i) => b - m[i]![d]! / m[i]![i]!);
  }
  const model = { bias: beta[0]!, weights: beta.slice(1), threshold: 0 };
  const p = samples.filter((s) => s.answerable).map((s) => (s.x && !s.named ? answerability(s.x, model) : -1)).sort((a, b) => a - b);
  return { ...model, threshold: p[samples.filter((s) => s.answerable && s.ruled).length] ?? 1 };
}

/** Each corpus with the model fitted without it, then the model fitted over them all. */
function reportFit() {
  const rate = (n: number, of: Sample[]) => pct(n, of.length);
  console.log(`\nanswerability model, leave one corpus out (hand rules in brackets): refused answerable, cited, don't know`);
  for (const [name, samples] of fitted) {
    const model = fitModel([...fitted].filter(([n]) => n !== name).flatMap(([, s]) => s));
    const ok = (s: Sample) => s.x !== null && !s.named && answerability(s.x, model) >= model.threshold;
    const [a, u] = [samples.filter((s) => s.answerable), samples.filter((s) => !s.answerable)];
    console.log(
      `  ${name.padEnd(18)} ${rate(a.filter((s) => !ok(s)).length, a)} (${rate(a.filter((s) => s.ruled).length, a)}) ${rate(a.filter((s) => ok(s) && s.hit).length, a)} (${rate(a.filter((s) => !s.ruled && s.hit).length, a)}) ${rate(u.filter((s) => !ok(s)).length, u)} (${rate(u.filter((s) => s.ruled).length, u)})`,
    );
  }
  const model = fitModel([...fitted.values()].flat());
  const round = (x: number) => Number(x.toFixed(4));
  console.log(`\nexport const ANSWERABILITY: AnswerabilityModel = ${JSON.stringify({ bias: round(model.bias), weights: model.weights.map(round), threshold: round(model.threshold) })};`);
}

/** With --embeddings: a search as a chat's with that model, every chunk and question embedded first, as a sync and a chat embed them. */
async function hybridOf(embedder: Embedder, chunks: Chunk[], questions: Question[]) {
  const embed = async (texts: string[], out: Float32Array[] = []) => {
    for (let i = 0; i < texts.length; i += embedder.batchSize) out.push(...(await embedder.embed(texts.slice(i, i + embedder.batchSize))));
    return out;
  };
  // Quantised here as a sync stores them (a sync's embedStored thread would keep this process from exiting).
  const floats = await embed(chunks.map(embeddingText));
  const vectors = joinVectors([{ model: embedder.model, stored: quantiseUnit(joinArrays(Float32Array, floats), floats[0]!.length)! }]);
  const asked = new Map((await embed(questions.map((q) => q.q))).map((v, i) => [questions[i]!.q, v]));
  return (segment: Bm25Segment, q: string) => ((segment.vectors = vectors), hybridSearch([segment], [segment], q, asked.get(q)!, CANDIDATES, embedder.minSimilarity));
}

/** One retriever over one corpus's chunks: its ranking and the answerer's citations. */
function scoreRetriever(chunks: Chunk[], options: RetrieverOptions, questions: Question[], confidence: Confidence, search = (segment: Bm25Segment, q: string) => searchSegments([segment], q, CANDIDATES)) {
  const segment = new Bm25Segment('corpus', 1, options);
  for (const c of chunks) segment.add({ chunkId: c.id, rowId: c.rowId, heading: c.heading, text: c.text });
  segment.compact();
  const [all, para, none] = [newTally(), newTally(), newTally()];
  const samples: Sample[] = [];
  for (const q of questions) {
    const found: ScoredChunk[] = search(segment, q.q);
    const { used } = composeGroundedReply(found, undefined, confidence);
    const signals = found[0]?.signals;
    if (fit) samples.push({ x: signals ? answerFeatures(signals) : null, named: !!signals?.unknownName, answerable: q.rows.length > 0, ruled: !composeGroundedReply(found, undefined, RULES).used.length, hit: hits(q, composeGroundedReply(found, undefined, OPEN).used) });
    const tallies = q.rows.length ? (q.paraphrased ? [all, para] : [all]) : [none];
    const sections = sectionsOf(found);
    for (const t of tallies) {
      if (hits(q, sections.slice(0, 1))) t.at1++;
      if (hits(q, sections.slice(0, 3))) t.at3++;
      if (hits(q, used)) t.cited++;
      t.citedPassages += used.length;
      if (!used.length) t.declined++;
    }
  }
  return { all, para, none, samples };
}

function scorePlain(chunks: Chunk[], questions: Question[]) {
  const index = new PlainBm25<Chunk>();
  for (const c of chunks) index.add(c, c.heading ? `${c.heading}\n${c.text}` : c.text);
  const [all, para] = [newTally(), newTally()];
  for (const q of questions.filter((x) => x.rows.length)) {
    const sections = sectionsOf(index.search(q.q, CANDIDATES));
    for (const t of q.paraphrased ? [all, para] : [all]) {
      if (hits(q, sections.slice(0, 1))) t.at1++;
      if (hits(q, sections.slice(0, 3))) t.at3++;
    }
  }
  return { all, para };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '—').padStart(7);

const selected = flag('corpora')?.split(',') ?? null;
const heldOut = process.argv.includes('--held-out');
const corpora = CORPORA.filter((c) => (selected ? selected.includes(c.name) : true) && (!c.heldOut || heldOut));
if (selected?.some((n) => CORPORA.find((c) => c.name === n)?.heldOut) && !heldOut) {
  console.error('held-out corpora are scored only with --held-out');
  process.exit(2);
}
const embedder = process.argv.includes('--embeddings') ? embedderFor(loadConfig()) : null;
if (process.argv.includes('--embeddings') && !embedder) throw new Error('--embeddings needs EMBEDDING_MODEL and OPENAI_BASE_URL, as the server does');
const ablate = flag('ablate');
/** The retriever every variant starts from: the defaults, or these options over them. */
const base: RetrieverOptions = { ...DEFAULT_RETRIEVER, ...(JSON.parse(flag('options') ?? '{}') as Partial<RetrieverOptions>) };
const methods = ablate === 'all' ? Object.keys(METHODS) : ablate ? ablate.split(',') : [];
for (const m of methods) {
  if (!(m in METHODS) && m !== 'passage size') {
    console.error(`unknown method "${m}"; one of: ${[...Object.keys(METHODS), 'passage size'].join(', ')}`);
    process.exit(2);
  }
}

console.log(`retrieval benchmark — ${machineLine()}`);
for (const corpus of corpora) {
  const { name, version, rows, chunksAt, questions } = loadCorpus(corpus);
  const chunks = chunksAt();
  const answerable = questions.filter((q) => q.rows.length);
  const paraphrased = answerable.filter((q) => q.paraphrased).length;
  const unanswerable = questions.length - answerable.length;
  console.log(`\n${corpus.name}: ${corpus.pkg} = ${name}@${version}, ${corpus.kind}${corpus.heldOut ? ' (held out)' : ''}`);
  console.log(`  ${rows.length} rows, ${chunks.length} chunks; ${answerable.length} answerable questions (${paraphrased} paraphrased), ${unanswerable} unanswerable`);
  if (process.argv.includes('--check')) {
    const missing = answerable.flatMap((q) => q.rows.filter((t) => !chunks.some((c) => matches(c, t))).map((t) => `${t} (${q.q})`));
    console.log(missing.length ? missing.map((m) => `  missing: ${m}`).join('\n') : '  every expected section exists');
    continue;
  }
  const plain = scorePlain(chunks, questions);
  console.log(`  ${'retriever'.padEnd(40)} ${'@1'.padStart(7)} ${'@3'.padStart(7)} ${'@cited'.padStart(7)} ${'cited'.padStart(5)}  | para @3, @cited | don't know: unanswerable, answerable`);
  console.log(`  ${'plain BM25 (k1 1.2, b 0.75)'.padEnd(40)} ${pct(plain.all.at1, answerable.length)} ${pct(plain.all.at3, answerable.length)}  |  para @1 ${pct(plain.para.at1, paraphrased)}, @3 ${pct(plain.para.at3, paraphrased)}`);
  const variants: Array<[string, Chunk[], RetrieverOptions, Confidence?, Parameters<typeof scoreRetriever>[4]?]> = [[flag('options') ? `relay ${flag('options')}` : 'relay (defaults)', chunks, base]];
  if (embedder) variants.push([`  hybrid, ${embedder.model} (floor ${embedder.minSimilarity})`, chunks, base, CONFIDENCE, await hybridOf(embedder, chunks, questions)]);
  if (flag('answerer')) variants.push([`  answerer ${flag('answerer')}`, chunks, base, { ...CONFIDENCE, ...(JSON.parse(flag('answerer')!) as Partial<Confidence>) }]);
  for (const m of methods) {
    if (m === 'passage size') for (const size of PASSAGE_SIZES) variants.push([`  chunks of ${size} characters`, chunksAt(size), base]);
    else variants.push([`  ${m} ${JSON.stringify(METHODS[m])}`, chunks, { ...base, ...METHODS[m] }]);
  }
  for (const [name, source, options, confidence = CONFIDENCE, search] of variants) {
    const { all, para, none, samples } = scoreRetriever(source, options, questions, confidence, search);
    if (fit && !corpus.heldOut && !fitted.has(corpus.name)) fitted.set(corpus.name, samples);
    const n = answerable.length;
    console.log(
      `  ${name.slice(0, 40).padEnd(40)} ${pct(all.at1, n)} ${pct(all.at3, n)} ${pct(all.cited, n)} ${(all.citedPassages / n).toFixed(2).padStart(5)}  | ${pct(para.at3, paraphrased)} ${pct(para.cited, paraphrased)} | ${pct(none.declined, unanswerable)} ${pct(all.declined, n)}`,
    );
  }
}
if (fit) reportFit();
