// Retriever options measured in bench/retrieval.ts and left off by default: WordNet synonyms of the
// question's words (the real WordNet 3.1 database) and query-likelihood fusion.
import { describe, expect, it } from 'vitest';
import { Bm25Segment, DEFAULT_RETRIEVER, type IndexedChunk, type RetrieverOptions } from '../../src/knowledge/bm25.ts';
import { searchSegments } from '../../src/knowledge/search.ts';
import { synonyms } from '../../src/knowledge/synonyms.ts';

const segmentOf = (chunks: Array<Omit<IndexedChunk, 'chunkId'>>, options: Partial<RetrieverOptions> = {}) => {
  const segment = new Bm25Segment('ds', 1, { ...DEFAULT_RETRIEVER, ...options });
  chunks.forEach((c, i) => segment.add({ chunkId: `c${i}`, ...c }));
  return segment;
};

describe('WordNet synonyms', () => {
  it("lists the single-word synonyms of a word's commonest senses, for inflected forms too", () => {
    expect(synonyms('begin')).toEqual(expect.arrayContaining(['start', 'commence']));
    expect(synonyms('begins')).toEqual(expect.arrayContaining(['start']));
    expect(synonyms('begin')).not.toContain('begin');
    expect(synonyms('qwzxv')).toEqual([]);
  });

  it('finds a passage that says "start" for a question that says "begin" only with the option on', () => {
    const rows = [
      { rowId: 'launch', heading: 'Launch', text: 'Start the server with the serve command.' },
      { rowId: 'halt', heading: 'Halt', text: 'Stop the server with the halt command.' },
    ];
    expect(searchSegments([segmentOf(rows)], 'How do I begin?', 5)).toEqual([]);
    const hits = searchSegments([segmentOf(rows, { synonyms: 0.15 })], 'How do I begin?', 5);
    expect(hits.map((h) => h.rowId)).toEqual(['launch']);
  });
});

describe('query-likelihood fusion', () => {
  it('reorders the same candidates and keeps their BM25 scores', () => {
    const rows = [
      { rowId: 'a', heading: 'Cache', text: 'The cache stores responses. The cache is cleared on restart.' },
      { rowId: 'b', heading: 'Store', text: `The cache store keeps responses on disk. ${'Other words about disks and files. '.repeat(12)}` },
      { rowId: 'c', heading: 'Clear', text: 'Clear the cache with the clear command before a restart.' },
    ];
    const question = 'How do I clear the cache on restart?';
    const plain = searchSegments([segmentOf(rows)], question, 5);
    const fused = searchSegments([segmentOf(rows, { likelihoodFusion: true })], question, 5);
    const byRow = (hits: typeof plain) => Object.fromEntries(hits.map((h) => [h.rowId, h.score]));
    expect(fused).toHaveLength(plain.length);
    expect(byRow(fused)).toEqual(byRow(plain));
  });
});
