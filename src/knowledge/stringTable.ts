// A compacted segment's many small strings (row ids, row versions, headings, its vocabulary) as one
// joined string each, with their ends in a typed array: a few heap objects where there were one per
// string (~400,000 at 100,000 rows), so every mark-compact of the process that holds the index has
// that much less to mark (measured at full size). A string is sliced out when asked for.

/** Strings (or nulls) by index. */
export class StringTable {
  private constructor(
    private readonly joined: string,
    /** Per string: where it ends in `joined`; it starts where the one before ends. */
    private readonly ends: Uint32Array,
    private readonly nulls: Uint8Array | null,
  ) {}

  static of(values: ReadonlyArray<string | null>): StringTable {
    const ends = new Uint32Array(values.length);
    let end = 0;
    let nulls: Uint8Array | null = null;
    values.forEach((v, i) => {
      if (v === null) (nulls ??= new Uint8Array(values.length))[i] = 1;
      else end += v.length;
      ends[i] = end;
    });
    return new StringTable(values.join(''), ends, nulls);
  }

  get length(): number {
    return this.ends.length;
  }

  at(i: number): string | null {
    if (this.nulls?.[i]) return null;
    return this.joined.slice(i ? this.ends[i - 1]! : 0, this.ends[i]!);
  }

  /** Whether string `i` equals `s`, without slicing it out. */
  equals(i: number, s: string): boolean {
    if (this.nulls?.[i]) return false;
    const start = i ? this.ends[i - 1]! : 0;
    return this.ends[i]! - start === s.length && this.joined.startsWith(s, start);
  }
}

/**
 * A vocabulary's ids by term: the terms in one StringTable (id order) and an open-addressing hash
 * table of their ids, in place of a Map of one string key per term.
 */
export class TermTable {
  private readonly slots: Int32Array;

  private constructor(private readonly terms: StringTable) {
    // Load factor at most 1/2: a miss (most query terms of another source) probes a few slots.
    let size = 16;
    while (size < terms.length * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    for (let id = 0; id < terms.length; id++) {
      let slot = hash(terms.at(id)!) & (size - 1);
      while (this.slots[slot] !== -1) slot = (slot + 1) & (size - 1);
      this.slots[slot] = id;
    }
  }

  /** `ids` numbers its terms 0, 1, 2, ... (a segment's vocabulary). */
  static of(ids: ReadonlyMap<string, number>): TermTable {
    const terms: string[] = new Array(ids.size);
    for (const [term, id] of ids) terms[id] = term;
    return new TermTable(StringTable.of(terms));
  }

  get size(): number {
    return this.terms.length;
  }

  get(term: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = hash(term) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === -1) return undefined;
      if (this.terms.equals(id, term)) return id;
    }
  }
}

/** FNV-1a over the UTF-16 code units. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
