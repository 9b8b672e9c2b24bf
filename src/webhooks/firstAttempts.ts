// Records of first attempts a process has taken on (one per fan-out batch, naming its events):
// written before the deliveries, so a crash at any point leaves a record for the sweep, and deleted
// in batches once every attempt of the batch is recorded. A record deleted late or never costs the
// sweep one look.
import type { Logger } from '../observability/logger.ts';
import { trusted } from '../db/connection.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { timeOrderedId } from '../clock.ts';
import { UnfinishedFirstAttemptsModel } from './model.ts';

/** One batch's record while its first attempts run: each recorded attempt counts down. */
export class OpenFirstAttempts {
  private open = 0;

  constructor(
    readonly id: string,
    private readonly closed: (id: string) => void,
  ) {}

  /** How many first attempts the batch turned out to have; none closes the record at once. */
  expect(attempts: number): void {
    this.open = attempts;
    if (attempts <= 0) this.closed(this.id);
  }

  /** `n` attempts of the batch are recorded. */
  done(n = 1): void {
    if (this.open <= 0 || n <= 0) return;
    this.open -= n;
    if (this.open <= 0) this.closed(this.id);
  }
}

export class FirstAttemptRecords {
  private readonly deletes: SerialBatcher<string>;

  constructor(private readonly logger: Logger) {
    this.deletes = new SerialBatcher(256, (ids) => this.delete(ids));
  }

  /** Writes the record of a batch's first attempts; it must be written before the deliveries are. */
  async open(eventIds: string[], at: Date): Promise<OpenFirstAttempts> {
    const id = timeOrderedId();
    await UnfinishedFirstAttemptsModel.collection.insertOne({ _id: id, at, eventIds } as never);
    return new OpenFirstAttempts(id, (closed) => this.deletes.add(closed));
  }

  /** Resolves once every record closed so far is deleted (shutdown, tests). */
  drained(): Promise<void> {
    return this.deletes.drained();
  }

  private async delete(ids: string[]): Promise<void> {
    try {
      await UnfinishedFirstAttemptsModel.deleteMany({ _id: trusted({ $in: ids }) });
    } catch (err) {
      this.logger.warn({ err, records: ids.length }, 'finished first attempts kept their records; the sweep will look at them');
    }
  }
}
