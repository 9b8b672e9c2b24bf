// Unmetered replies are counted with the chunker's tokenizer; js-tiktoken stays the oracle.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getEncoding } from 'js-tiktoken';
import { countTokens } from '../../src/chat/tokens.ts';

describe('countTokens', () => {
  const encoding = getEncoding('cl100k_base');
  const oracle = (...texts: string[]) => texts.reduce((n, t) => n + encoding.encode(t, [], []).length, 0);

  it('counts each text as js-tiktoken cl100k_base does, summed, special-token text as plain text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }), { maxLength: 3 }), (texts) => {
        expect(countTokens(...texts)).toBe(oracle(...texts));
      }),
      { numRuns: 200 },
    );
    expect(countTokens('How do I reset my password?', 'Naïve façade — 東京 🚀 <|endoftext|>')).toBe(oracle('How do I reset my password?', 'Naïve façade — 東京 🚀 <|endoftext|>'));
  });
});
