// The k best (score, segment, item) triples of a stream, in a binary min-heap over parallel typed
// arrays: a query that touches most of 100,000 chunks allocates nothing per chunk.
export class TopK {
  readonly scores: Float64Array;
  readonly segments: Int32Array;
  readonly items: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.segments = new Int32Array(k);
    this.items = new Int32Array(k);
  }

  /** The score an entry must beat to get in once the heap is full. */
  get floor(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }

  push(score: number, segment: number, item: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.scores[parent]! <= score) break;
        this.move(parent, i);
        i = parent;
      }
      this.set(i, score, segment, item);
      return;
    }
    if (score <= this.scores[0]!) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.scores[right]! < this.scores[left]! ? right : left;
      if (this.scores[child]! >= score) break;
      this.move(child, i);
      i = child;
    }
    this.set(i, score, segment, item);
  }

  /** Entries best first, as [score, segment, item]. */
  sorted(): Array<[number, number, number]> {
    const out: Array<[number, number, number]> = [];
    for (let i = 0; i < this.size; i++) out.push([this.scores[i]!, this.segments[i]!, this.items[i]!]);
    return out.sort((a, b) => b[0] - a[0]);
  }

  private move(from: number, to: number): void {
    this.set(to, this.scores[from]!, this.segments[from]!, this.items[from]!);
  }

  private set(i: number, score: number, segment: number, item: number): void {
    this.scores[i] = score;
    this.segments[i] = segment;
    this.items[i] = item;
  }
}
