// Whether the grounded answerer quotes anything: the ranking's signals (knowledge/search.ts), the
// answerability model fitted over the retrieval bench's corpora (chat/answerers/answerability.ts),
// a question naming what no chunk holds refused before it, and the hand rules for hits without signals.
import { describe, expect, it } from 'vitest';
import { Bm25Segment } from '../../src/knowledge/bm25.ts';
import { searchSegments } from '../../src/knowledge/search.ts';
import { ANSWERABILITY, answerability, answerFeatures } from '../../src/chat/answerers/answerability.ts';
import { composeGroundedReply, CONFIDENCE, NO_ANSWER } from '../../src/chat/answerers/grounded.ts';

const PASSAGES: Array<[string, string]> = [
  ['publish', 'Run npm publish to release the package to the registry. Add --tag next to publish a prerelease that installs only when asked for.'],
  ['install', 'Run npm install to add a package and its dependencies to node_modules.'],
  ['scripts', 'Scripts in package.json run with npm run; pre and post scripts run around them.'],
  ['config', 'Configuration lives in .npmrc files; each key sets one option of the package commands.'],
  ['cache', 'The cache keeps downloaded package tarballs; npm cache verify checks it.'],
  ['audit', 'npm audit reports known vulnerabilities in the dependencies of the package.'],
  ['login', 'npm login stores a token for the registry in your user .npmrc file.'],
  ['version', 'npm version bumps the package version and creates a git tag for it.'],
];
const segment = new Bm25Segment('ds', 1);
PASSAGES.forEach(([rowId, text], i) => segment.add({ chunkId: `c${i}`, rowId, heading: rowId, text }));
segment.compact();
const search = (q: string) => searchSegments([segment], q, 5);

describe('the ranking signals', () => {
  it('are the same for every hit of a question and come from the corpus statistics', () => {
    const hits = search('How do I publish a prerelease with a tag?');
    expect(hits[0]!.rowId).toBe('publish');
    const signals = hits[0]!.signals!;
    for (const h of hits) expect(h.signals).toEqual(signals);
    expect(signals.coverage).toBe(1);
    expect(signals.missingIdf).toBe(0);
    expect(signals.unknownTerms).toBe(0);
    expect(signals.gap).toBeGreaterThan(0);
    const unknown = search('How do I publish to homebrew?')[0]!.signals!;
    expect(unknown.unknownTerms).toBe(1);
    expect(unknown.unknown).toBeGreaterThan(0);
    // "tarballs" is held by one chunk, and the best passage for "publish" lacks it: the idf of a term held once.
    expect(search('How do I publish tarballs?')[0]!.signals!.missingIdf).toBeCloseTo(1);
  });

  it('give the model inputs between 0 and 1, one per weight', () => {
    for (const q of ['How do I publish a prerelease with a tag?', 'How do I publish to homebrew?', 'What does the weather do to the dependencies of my garden shed?']) {
      const x = answerFeatures(search(q)[0]!.signals!);
      expect(x).toHaveLength(ANSWERABILITY.weights.length);
      for (const v of x) expect(v >= 0 && v <= 1).toBe(true);
    }
  });
});

describe('the answerability model', () => {
  it("quotes the passages when the question's probability reaches the threshold, and nothing below it", () => {
    const hits = search('How do I publish a prerelease with a tag?');
    const p = answerability(hits[0]!.signals!, ANSWERABILITY);
    expect(composeGroundedReply(hits, undefined, { ...CONFIDENCE, answerability: { ...ANSWERABILITY, threshold: p } }).used[0]!.rowId).toBe('publish');
    expect(composeGroundedReply(hits, undefined, { ...CONFIDENCE, answerability: { ...ANSWERABILITY, threshold: p + 1e-9 } })).toEqual({ text: NO_ANSWER, used: [] });
  });

  it('answers a question the passages answer and refuses one they only share a common word with', () => {
    expect(composeGroundedReply(search('How do I publish a prerelease with a tag?')).used[0]!.rowId).toBe('publish');
    const offTopic = search('How much does the package cost per month for a team?');
    expect(offTopic.length).toBeGreaterThan(0);
    expect(composeGroundedReply(offTopic)).toEqual({ text: NO_ANSWER, used: [] });
  });

  it('is not asked about a question that names what no chunk holds', () => {
    const hits = search('How do I publish a prerelease to the registry with Homebrew?');
    expect(hits[0]!.unknownName).toBe(true);
    expect(composeGroundedReply(hits)).toEqual({ text: NO_ANSWER, used: [] });
    const model = composeGroundedReply(hits, undefined, { ...CONFIDENCE, unknownNames: false }).used.length > 0;
    expect(model).toBe(answerability(hits[0]!.signals!, ANSWERABILITY) >= ANSWERABILITY.threshold);
  });

  it('leaves hits without signals (a passage only the embeddings found) to the hand rules', () => {
    const hit = (coverage: number) => ({ chunkId: 'c', rowId: 'r', dataSourceId: 'ds', heading: null, text: 'Run npm publish.', score: 5, coverage, unknown: 0, missingName: false });
    expect(composeGroundedReply([hit(1)]).used).toHaveLength(1);
    expect(composeGroundedReply([hit(0.1)]).used).toEqual([]);
  });
});
