// Groups writes that may happen a little later into few commands: items are handed to `flush` one
// batch at a time, and items added while a batch is being written form the next one. On FerretDB
// v1 every command is a SQLite commit and concurrent writers wait on each other, so fewer, larger
// commands are what makes a busy path fast (docs/FERRETDB.md). With `lanes` above 1, that many
// batches may be in flight at once: at low load an item then does not wait behind another
// batch's round trip. With `gatherMs`, an item that arrives within that long of the one before waits
// up to `gatherMs` for more to share its command; one after a quiet spell goes at once.
// Kept for the webhooks' fan-out and first attempts (bench/deliveries.ts) and GroupInsert;
// test/db/serialBatcher.test.ts.
export class SerialBatcher<T> {
  private waiting: T[] = [];
  private inFlight = 0;
  private drainWaiters: Array<() => void> = [];
  private lastAddedAt = -Infinity;
  private gathering: NodeJS.Timeout | null = null;

  constructor(
    private readonly max: number,
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly onIdle: () => void = () => undefined,
    private readonly lanes = 1,
    private readonly gatherMs = 0,
  ) {}

  add(item: T): void {
    this.waiting.push(item);
    const now = performance.now();
    const busy = now - this.lastAddedAt < this.gatherMs;
    this.lastAddedAt = now;
    if (busy && this.waiting.length < this.max) {
      this.gathering ??= setTimeout(() => {
        this.gathering = null;
        this.pump();
      }, this.gatherMs);
      return;
    }
    this.pump();
  }

  get idle(): boolean {
    return this.inFlight === 0 && this.waiting.length === 0;
  }

  /** Resolves once everything added so far is flushed. */
  drained(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private pump(): void {
    while (this.inFlight < this.lanes && this.waiting.length && (!this.gathering || this.waiting.length >= this.max)) {
      this.inFlight++;
      // `flush` logs and handles its own failures; a throw that escapes it must not stop the batcher.
      void this.flush(this.waiting.splice(0, this.max))
        .catch(() => undefined)
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
    if (this.idle) {
      for (const resolve of this.drainWaiters.splice(0)) resolve();
      this.onIdle();
    }
  }
}
