// terms(): the ASCII scan gives exactly the terms of the Unicode regexes (termsByRegex), on
// generated text full of identifiers and on the ai package's docs, the retrieval bench's corpus.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { terms, termsByRegex } from '../../src/knowledge/terms.ts';

const require = createRequire(import.meta.url);

describe('terms', () => {
  it('gives the same terms as the regexes on generated ASCII text', () => {
    const pieces = ['a', 'Z', 'x', 'Q', '3', '0', '.', '_', ' ', '-', 'JSON', 'Parse', 'write', 'File', 'fs', '__', '..', '1.2', 'ies', 'ing', 'the', '\n', '`', '(', 'é', '東'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(terms(text)).toEqual(termsByRegex(text));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(terms(text)).toEqual(termsByRegex(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same terms as the regexes on the ai docs corpus', () => {
    const dir = path.join(path.dirname(require.resolve('ai-docs-corpus/package.json')), 'docs');
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md') || f.endsWith('.mdx'));
    expect(files.length).toBeGreaterThan(100);
    let compared = 0;
    for (const f of files) {
      // Line by line, so ASCII lines take the scan even in a file that has other characters.
      for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
        expect(terms(line)).toEqual(termsByRegex(line));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
