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
  return /\d/.test(word) ? word : stemLetters(word);
}

/**
 * stem() of a word known to have no digit: the plural first, then -ing or -ed, so "settings" meets
 * "setting" and "caches" meets "cached" (Porter's step 1a before 1b).
 */
function stemLetters(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) return w.slice(0, -3);
  if (w.endsWith('ed') && w.length > 4) return w.slice(0, -2);
  return w;
}

/**
 * Whether the token at [start, end) is written as a method or call, `.has` or `is(`: a stop word
 * written so is a name (cheerio's `.is()`, a Map's `.has()`), not a function word.
 */
const isCall = (text: string, start: number, end: number) => text.charCodeAt(start - 1) === 46 || text.charCodeAt(end) === 40;

/** A word, or an identifier whose parts are joined by `.` or `_`. */
const TOKEN = /[\p{L}\p{N}]+(?:[._][\p{L}\p{N}]+)*/gu;
/** Boundaries inside a name: `_`, lower→Upper (writeFile), and UPPER→Upper-lower (JSONParse). */
const PARTS = /_|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '');

export function terms(text: string, opts: TermOptions = {}): string[] {
  const split = opts.splitIdentifiers ?? true;
  return (split && asciiTerms(text)) || termsByRegex(text, split);
}

/** The terms by the Unicode regexes above: any text. `terms` takes a faster path for ASCII text that gives the same terms. */
export function termsByRegex(text: string, split = true): string[] {
  const out: string[] = [];
  const keep = (word: string, call = false) => {
    if (STOP_WORDS.has(word) && !call) return;
    out.push(stem(word));
  };
  const folded = fold(text);
  for (const match of folded.matchAll(TOKEN)) {
    const segments = match[0].split('.');
    const call = isCall(folded, match.index, match.index + match[0].length);
    if (!split) {
      for (const segment of segments) for (const word of segment.split('_')) keep(word.toLowerCase(), call && segments.length === 1 && !segment.includes('_'));
      continue;
    }
    // Each name is kept whole (one rare term, high idf) and in parts, so plain words meet it:
    // `fs.writeFile` → fs, write, file, writefile, fswritefile.
    for (const segment of segments) {
      const parts = segment.split(PARTS).filter(Boolean);
      for (const part of parts) keep(part.toLowerCase(), call && segments.length === 1 && parts.length === 1);
      if (parts.length > 1) out.push(parts.join('').toLowerCase());
    }
    if (segments.length > 1 && !/^[\d.]+$/.test(match[0])) out.push(segments.join('').toLowerCase());
  }
  return out;
}

// Character classes of ASCII codes, for the scanner below.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : 0;
const DOT = 46;
const UNDERSCORE = 95;

/**
 * `termsByRegex` with identifiers split, for ASCII text, by one scan of its character codes: NFKD
 * leaves ASCII as it is, and on ASCII \p{L}, \p{N}, \p{Ll} and \p{Lu} are [A-Za-z], [0-9], [a-z] and
 * [A-Z]. The regexes and normalising were ~60 % of building a segment, as measured. Null when the text has a code above 127, which the regexes take.
 */
function asciiTerms(text: string): string[] | null {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c > 127) return null;
    if (!CLASS[c]) {
      i++;
      continue;
    }
    // A token: letters and digits, then any number of `.` or `_` each followed by more of them.
    const start = i;
    // What the token holds after its first character: an upper-case letter or a separator means
    // it may split into parts; a digit means no stemming.
    let seen = 0;
    for (;;) {
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d > 127 || !CLASS[d]) break;
        if (i > start) seen |= CLASS[d]!;
        else if (CLASS[d] === DIGIT) seen |= DIGIT;
      }
      if (i < n && text.charCodeAt(i) > 127) return null;
      const sep = i < n ? text.charCodeAt(i) : 0;
      const after = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if ((sep === DOT || sep === UNDERSCORE) && after < 128 && CLASS[after]) {
        seen |= UPPER;
        i++;
      } else break;
    }
    const token = text.slice(start, i);
    const call = isCall(text, start, i);
    if (seen & UPPER) tokenTerms(token, out, call);
    else {
      // One word: no part boundary and nothing to join.
      const word = token.toLowerCase();
      if (!STOP_WORDS.has(word) || call) out.push(seen & DIGIT ? word : stemLetters(word));
    }
  }
  return out;
}

/** One token's terms, as termsByRegex gives them with identifiers split. */
function tokenTerms(token: string, out: string[], call: boolean): void {
  const segments = token.split('.');
  for (const segment of segments) {
    const parts: string[] = [];
    // The PARTS split: at `_` (dropped), and before an upper-case letter that follows a lower-case
    // letter or a digit, or that follows an upper-case one and precedes a lower-case one; never at
    // the start of a part (String.prototype.split skips an empty match there).
    let from = 0;
    for (let j = 0; j < segment.length; j++) {
      const c = segment.charCodeAt(j);
      if (c === UNDERSCORE) {
        if (j > from) parts.push(segment.slice(from, j));
        from = j + 1;
        continue;
      }
      if (j === from || CLASS[c] !== UPPER) continue;
      const before = CLASS[segment.charCodeAt(j - 1)]!;
      const next = j + 1 < segment.length ? CLASS[segment.charCodeAt(j + 1)]! : 0;
      if (before === LOWER || before === DIGIT || (before === UPPER && next === LOWER)) {
        parts.push(segment.slice(from, j));
        from = j;
      }
    }
    if (segment.length > from) parts.push(segment.slice(from));
    for (const part of parts) {
      const word = part.toLowerCase();
      if (!STOP_WORDS.has(word) || (call && segments.length === 1 && parts.length === 1)) out.push(stem(word));
    }
    if (parts.length > 1) out.push(parts.join('').toLowerCase());
  }
  if (segments.length > 1 && !/^[\d.]+$/.test(token)) out.push(segments.join('').toLowerCase());
}

/** A word the question spells as a name: capitalised past its first word, a capital inside it (GraphQL), or letters with digits (OAuth2). */
const NAME = /^\p{Lu}|.\p{Lu}|\d.*\p{L}|\p{L}.*\d/u;

/**
 * The terms of the names a question writes ("Kubernetes", "GraphQL", "OAuth2"), the first word
 * aside: capitalisation marks a question's key concepts without a model (Bendersky & Croft 2008
 * use it among their key-concept features), and a passage that lacks the name it asks about rarely answers it.
 */
export function nameTerms(question: string, opts: TermOptions = {}): string[] {
  return [...new Set(nameWords(question, opts).flat())];
}

/** Each name a question writes (see nameTerms), as that word's terms. */
export function nameWords(question: string, opts: TermOptions = {}): string[][] {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}\/+#-]*/gu) ?? [];
  return words
    .slice(1)
    .filter((w) => NAME.test(w))
    .map((w) => terms(w, opts))
    .filter((t) => t.length);
}
