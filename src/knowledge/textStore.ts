// The chunks' texts of a loaded segment, out of the JS heap: deflated in blocks of ~16 KB, all in
// one Buffer once built, so a question inflates only its hits' blocks (tens of µs each). The texts
// were about half the index's heap at 100,000 rows of ~2 KB (measured);
// deflated they take ~3.4 times less, outside the heap.
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';

/** Raw bytes per block: larger blocks deflate a little better (32 KB: 3.5× against 3.4×) and inflate slower. */
const BLOCK_BYTES = 16 * 1024;

export class TextStore {
  /** The block being filled, as strings. */
  private pending: string[] = [];
  private pendingBytes = 0;
  /** Per block: its deflated bytes, until `compact` joins them. */
  private blocks: Buffer[] = [];
  /** Per block: its first text. */
  private firstText: number[] | Int32Array = [];
  /** Per text: where it ends in its block's inflated bytes. */
  private ends: number[] | Uint32Array = [];
  /** Per block once compacted: where it starts in `data`, and a last entry (data's length). */
  private offsets: Uint32Array | null = null;
  private data: Buffer | null = null;
  /** Texts with a lone surrogate, which UTF-8 cannot carry: kept as they are (rare). */
  private readonly malformed = new Map<number, string>();
  /** The last block inflated: a question's hits often share one. */
  private cached: { block: number; bytes: Buffer } | null = null;

  get size(): number {
    return this.ends.length;
  }

  add(text: string): void {
    if (this.offsets) throw new Error('a compacted text store takes no more texts');
    if (!(text as unknown as { isWellFormed(): boolean }).isWellFormed()) {
      this.malformed.set(this.ends.length, text);
      text = '';
    }
    if (!this.pending.length) (this.firstText as number[]).push(this.ends.length);
    this.pendingBytes += Buffer.byteLength(text);
    (this.ends as number[]).push(this.pendingBytes);
    this.pending.push(text);
    if (this.pendingBytes >= BLOCK_BYTES) this.seal();
  }

  private seal(): void {
    if (!this.pending.length) return;
    this.blocks.push(deflateRawSync(Buffer.from(this.pending.join('')), { level: constants.Z_BEST_SPEED }));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Once the last text is added: the blocks in one Buffer, the offsets in typed arrays. */
  compact(): void {
    if (this.offsets) return;
    this.seal();
    const offsets = new Uint32Array(this.blocks.length + 1);
    this.blocks.forEach((b, i) => (offsets[i + 1] = offsets[i]! + b.length));
    this.data = Buffer.concat(this.blocks);
    this.blocks = [];
    this.firstText = Int32Array.from(this.firstText);
    this.ends = Uint32Array.from(this.ends);
    this.offsets = offsets;
  }

  /** Bytes held once compacted: the deflated blocks and the offsets. */
  get bytes(): number {
    return (this.data?.length ?? 0) + (this.offsets?.byteLength ?? 0) + 4 * (this.firstText.length + this.ends.length);
  }

  text(index: number): string {
    const odd = this.malformed.get(index);
    if (odd !== undefined) return odd;
    const block = this.blockOf(index);
    const start = index === this.firstText[block] ? 0 : this.ends[index - 1]!;
    return this.inflated(block).toString('utf8', start, this.ends[index]!);
  }

  private inflated(block: number): Buffer {
    if (this.cached?.block === block) return this.cached.bytes;
    let bytes: Buffer;
    if (block === this.blocks.length && !this.offsets) bytes = Buffer.from(this.pending.join(''));
    else bytes = inflateRawSync(this.offsets ? this.data!.subarray(this.offsets[block]!, this.offsets[block + 1]!) : this.blocks[block]!);
    // The block being filled still changes: not cached.
    if (this.offsets || block < this.blocks.length) this.cached = { block, bytes };
    return bytes;
  }

  /** The block holding text `index`: the last block whose first text is at or before it. */
  private blockOf(index: number): number {
    const first = this.firstText;
    let [lo, hi] = [0, first.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (first[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
