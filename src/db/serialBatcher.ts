// Groups writes that may happen a little later into few commands: items are handed to `flush` one
// batch at a time, and items added while a batch is being written form the next one. On FerretDB
// v1 every command is a SQLite commit and concurrent writers wait on each other, so fewer, larger
// commands are what makes a busy path fast (docs/FERRETDB.md).
export class SerialBatcher<T> {
  private waiting: T[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly max: number,
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly onIdle: () => void = () => undefined,
  ) {}

  add(item: T): void {
    this.waiting.push(item);
    this.running ??= this.drain();
  }

  get idle(): boolean {
    return this.running === null;
  }

  /** Resolves once everything added so far is flushed. */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      // `flush` logs and handles its own failures; a throw that escapes it must not stop the batcher.
      await this.flush(this.waiting.splice(0, this.max)).catch(() => undefined);
    }
    this.running = null;
    this.onIdle();
  }
}
