// Text → index terms for BM25: lower case, accents folded, words of letters and digits, English
// stop words dropped and a light suffix stemmer so "blenders"/"blender" and "returned"/"return" meet.
// Identifiers are split as well as kept whole, so a question that says "write file" finds
// `writeFile`, and one that names `fs.writeFile` or `write_file` finds it too.
const STOP_WORDS = new Set(
  ('a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to was we were what when where ' +
    'which who why will with would you your').split(' '),
);

export interface TermOptions {
  /** Split camelCase, dotted and snake_case names into their parts, keeping the joined name too. */
  splitIdentifiers?: boolean;
}

export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && /(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** A word, or an identifier whose parts are joined by `.` or `_`. */
const TOKEN = /[\p{L}\p{N}]+(?:[._][\p{L}\p{N}]+)*/gu;
/** Boundaries inside a name: `_`, lower→Upper (writeFile), and UPPER→Upper-lower (JSONParse). */
const PARTS = /_|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '');

export function terms(text: string, opts: TermOptions = {}): string[] {
  const split = opts.splitIdentifiers ?? true;
  const out: string[] = [];
  const keep = (word: string) => {
    if (STOP_WORDS.has(word)) return;
    out.push(stem(word));
  };
  for (const match of fold(text).matchAll(TOKEN)) {
    const segments = match[0].split('.');
    if (!split) {
      for (const segment of segments) for (const word of segment.split('_')) keep(word.toLowerCase());
      continue;
    }
    // Each name is kept whole (one rare term, high idf) and in parts, so plain words meet it:
    // `fs.writeFile` → fs, write, file, writefile, fswritefile.
    for (const segment of segments) {
      const parts = segment.split(PARTS).filter(Boolean);
      for (const part of parts) keep(part.toLowerCase());
      if (parts.length > 1) out.push(parts.join('').toLowerCase());
    }
    if (segments.length > 1 && !/^[\d.]+$/.test(match[0])) out.push(segments.join('').toLowerCase());
  }
  return out;
}
