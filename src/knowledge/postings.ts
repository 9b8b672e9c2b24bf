// A segment's posting lists as bytes: per term, entries (key, heading tf, body tf), the key (a chunk
// or a row) as the varint of its zigzagged distance from the entry before, the tfs as one varint
// (body tf × 2, +1 when a heading tf follows). Most entries take 2-3 bytes against 12 in an
// Int32Array triple, and every term's list sits in one Uint8Array once compacted, so a large
// vocabulary costs no typed-array object per term (measured at 100,000 rows).

interface Growing {
  bytes: Uint8Array;
  length: number;
  last: number;
  count: number;
}

/** Where a term's entries are: read them with `PostingReader`. */
export interface PostingList {
  bytes: Uint8Array;
  start: number;
  end: number;
  /** Entries in the list. */
  count: number;
}

/** Each term's index: a Map while a segment is built, a TermTable once compacted (stringTable.ts). */
export interface TermIds {
  get(term: string): number | undefined;
  readonly size: number;
}

export class PostingLists {
  private growing: Growing[] | null = [];
  private bytes: Uint8Array = new Uint8Array(0);
  private starts = new Uint32Array(1);
  private counts = new Uint32Array(0);

  /** `ids` gives each term its index, shared by the segment's chunk and row lists. */
  constructor(private ids: TermIds) {}

  /** The same terms' indexes in another form (a compacted segment's TermTable). */
  useIds(ids: TermIds): void {
    this.ids = ids;
  }

  append(id: number, key: number, inHeading: number, inBody: number): void {
    const g = this.growing;
    if (!g) throw new Error('compacted posting lists take no more entries');
    let list = g[id];
    if (!list) g[id] = list = { bytes: new Uint8Array(16), length: 0, last: 0, count: 0 };
    // At most three varints of 5 bytes.
    if (list.length + 15 > list.bytes.length) {
      const larger = new Uint8Array(list.bytes.length * 2);
      larger.set(list.bytes.subarray(0, list.length));
      list.bytes = larger;
    }
    const delta = key - list.last;
    list.last = key;
    list.count++;
    list.length = writeVarint(list.bytes, list.length, (delta << 1) ^ (delta >> 31));
    list.length = writeVarint(list.bytes, list.length, inBody * 2 + (inHeading ? 1 : 0));
    if (inHeading) list.length = writeVarint(list.bytes, list.length, inHeading);
  }

  /** Every list in one buffer; the growing ones are dropped. */
  compact(): void {
    const g = this.growing;
    if (!g) return;
    const terms = this.ids.size;
    const starts = new Uint32Array(terms + 1);
    const counts = new Uint32Array(terms);
    for (let id = 0; id < terms; id++) {
      starts[id + 1] = starts[id]! + (g[id]?.length ?? 0);
      counts[id] = g[id]?.count ?? 0;
    }
    const bytes = new Uint8Array(starts[terms]!);
    for (let id = 0; id < terms; id++) if (g[id]) bytes.set(g[id]!.bytes.subarray(0, g[id]!.length), starts[id]!);
    Object.assign(this, { growing: null, bytes, starts, counts });
  }

  list(term: string): PostingList | null {
    const id = this.ids.get(term);
    if (id === undefined) return null;
    if (this.growing) {
      const g = this.growing[id];
      return g ? { bytes: g.bytes, start: 0, end: g.length, count: g.count } : null;
    }
    if (id >= this.counts.length || !this.counts[id]) return null;
    return { bytes: this.bytes, start: this.starts[id]!, end: this.starts[id + 1]!, count: this.counts[id]! };
  }

  get byteLength(): number {
    return this.bytes.byteLength + this.starts.byteLength + this.counts.byteLength;
  }
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  let v = value >>> 0;
  while (v >= 0x80) {
    bytes[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  bytes[at++] = v;
  return at;
}

/** Reads a list's entries in order: `next()` until it returns false, then key, inHeading, inBody. */
export class PostingReader {
  key = 0;
  inHeading = 0;
  inBody = 0;
  private at = 0;
  private end = 0;
  private bytes: Uint8Array = new Uint8Array(0);

  reset(list: PostingList): this {
    this.bytes = list.bytes;
    this.at = list.start;
    this.end = list.end;
    this.key = 0;
    return this;
  }

  next(): boolean {
    if (this.at >= this.end) return false;
    const zig = this.varint();
    this.key += (zig >>> 1) ^ -(zig & 1);
    const tf = this.varint();
    this.inBody = tf >>> 1;
    this.inHeading = tf & 1 ? this.varint() : 0;
    return true;
  }

  private varint(): number {
    const bytes = this.bytes;
    let b = bytes[this.at++]!;
    if (b < 0x80) return b;
    let value = b & 0x7f;
    let shift = 7;
    do {
      b = bytes[this.at++]!;
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b >= 0x80);
    return value;
  }
}

/**
 * A chunk's or a row's tfs by term id while it is added: two counts per term in typed arrays and the
 * ids touched, cleared after, so adding a chunk allocates no map or pair per term.
 */
export class TermCounts {
  heading = new Int32Array(1024);
  body = new Int32Array(1024);
  readonly touched: number[] = [];

  add(id: number, inHeading: number, inBody: number): void {
    if (id >= this.heading.length) {
      const size = Math.max(id + 1, this.heading.length * 2);
      for (const key of ['heading', 'body'] as const) {
        const larger = new Int32Array(size);
        larger.set(this[key]);
        this[key] = larger;
      }
    }
    if (this.heading[id] === 0 && this.body[id] === 0) this.touched.push(id);
    this.heading[id]! += inHeading;
    this.body[id]! += inBody;
  }

  clear(): void {
    for (const id of this.touched) this.heading[id] = this.body[id] = 0;
    this.touched.length = 0;
  }
}
