// Text → index terms for BM25: lower case, accents folded, words of letters and digits, English
// stop words dropped and a light suffix stemmer so "blenders"/"blender" and "returned"/"return" meet.
const STOP_WORDS = new Set(
  ('a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to was we were what when where ' +
    'which who why will with would you your').split(' '),
);

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

const WORD = /[\p{L}\p{N}]+/gu;

export function terms(text: string): string[] {
  const out: string[] = [];
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  for (const match of folded.matchAll(WORD)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}
