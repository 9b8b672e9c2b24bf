// A group commit for inserts on a hot path: documents inserted while a batch is being written go
// out together in the next `insertMany`, and each caller learns its own document's fate. On FerretDB
// v1 a command costs about 1 ms and a document inside an insertMany about 0.1 ms, so under load this
// both raises throughput and shortens the queue behind a stalled write (docs/FERRETDB.md). Up to
// `lanes` batches are in flight at once, so at low load a document does not wait behind another
// batch's round trip; `gatherMs` makes documents arriving close together wait that long for company
// (serialBatcher.ts), fewer commands for a little latency.
import { MongoOperationTimeoutError } from 'mongodb';
import { failedWrites } from './insertNew.ts';
import { SerialBatcher } from './serialBatcher.ts';

interface Pending {
  doc: object;
  inserted: (fresh: boolean) => void;
  failed: (err: unknown) => void;
}

type InsertManyTarget = { insertMany(docs: never[], options: { ordered: false }): Promise<unknown> };

/**
 * How long a batch may hold its lane. A command the driver wrote to a socket Node had already
 * destroyed never settles (docs/FERRETDB.md); one request waiting for ever was the cost of that
 * before, a blocked lane would stop every insert behind it. Above FerretDB's 10 s busy timeout.
 */
const DEFAULT_LANE_TIMEOUT_MS = 20_000;

export class GroupInsert {
  private readonly batcher: SerialBatcher<Pending>;
  private readonly timeoutMs: number;

  constructor(
    private readonly collection: InsertManyTarget,
    opts: { max?: number; lanes?: number; timeoutMs?: number; gatherMs?: number } = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_LANE_TIMEOUT_MS;
    this.batcher = new SerialBatcher(opts.max ?? 256, (items) => this.write(items), undefined, opts.lanes ?? 2, opts.gatherMs ?? 0);
  }

  /** True when this call inserted the document, false when its unique key existed; other errors throw. */
  insert(doc: object): Promise<boolean> {
    return new Promise((inserted, failed) => this.batcher.add({ doc, inserted, failed }));
  }

  /** Resolves once everything handed in so far is written or refused. */
  drained(): Promise<void> {
    return this.batcher.drained();
  }

  private async write(items: Pending[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      // Past the bound its callers fail as on a timeout (503); should the insert still land, a
      // retried delivery is a duplicate and an event is dispatched by the sweeper.
      const bound = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new MongoOperationTimeoutError(`insert did not finish within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      await Promise.race([this.collection.insertMany(items.map((i) => i.doc as never), { ordered: false }), bound]);
    } catch (err) {
      // Unordered: every document was tried; writeErrors name the ones that failed and why.
      const failed = failedWrites(err);
      if (!failed) return items.forEach((i) => i.failed(err));
      const codes = new Map(failed.map((f) => [f.index, f.code]));
      items.forEach((item, i) => {
        if (!codes.has(i)) item.inserted(true);
        else if (codes.get(i) === 11000) item.inserted(false);
        else item.failed(err);
      });
      return;
    } finally {
      clearTimeout(timer);
    }
    for (const item of items) item.inserted(true);
  }
}
