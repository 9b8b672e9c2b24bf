// A group commit for inserts on a hot path: documents inserted while a batch is being written go
// out together in the next `insertMany`, and each caller learns its own document's fate. On FerretDB
// v1 a command costs about 1 ms and a document inside an insertMany about 0.1 ms, so under load this
// both raises throughput and shortens the queue behind a stalled write (docs/FERRETDB.md). Up to
// `lanes` batches are in flight at once, so at low load a document does not wait behind another
// batch's round trip; `gatherMs` makes documents arriving close together wait that long for company
// (serialBatcher.ts), fewer commands for a little latency. A companion collection (`first`) takes
// each document's companion before the document, so a stored document always has its companion.
// The patch batches updates, not inserts: kept for the gateway's intake rate (bench/gateway.ts) and
// the events' outbox; test/db/groupInsert.test.ts.
import { MongoOperationTimeoutError } from 'mongodb';
import { failedWrites } from './insertNew.ts';
import { SerialBatcher } from './serialBatcher.ts';

interface Pending {
  doc: object;
  /** Stored before `doc` (the `first` collection), removed again when `doc` turns out a duplicate. */
  first?: { _id: unknown; [field: string]: unknown };
  inserted: (fresh: boolean) => void;
  failed: (err: unknown) => void;
}

type InsertManyTarget = { insertMany(docs: never[], options: { ordered: false }): Promise<unknown> };
type CompanionTarget = InsertManyTarget & { deleteMany(filter: never): Promise<unknown> };

/** One document's fate in an unordered insertMany: `refused` when the database named it as failed, so it is certainly not stored. */
type Outcome = { stored: boolean; duplicate?: boolean; refused?: boolean; err?: unknown };

/**
 * How long a batch may hold its lane. A command the driver wrote to a socket Node had already
 * destroyed never settles (docs/FERRETDB.md); one request waiting for ever was the cost of that
 * before, a blocked lane would stop every insert behind it. Above FerretDB's 10 s busy timeout.
 */
const DEFAULT_LANE_TIMEOUT_MS = 20_000;

export class GroupInsert {
  private readonly batcher: SerialBatcher<Pending>;
  private readonly timeoutMs: number;
  private readonly first?: CompanionTarget;

  /**
   * `first`: a collection where each document's companion (passed to insert) is stored before it,
   * in one insertMany of the batch's companions, so a stored document always has its companion.
   */
  constructor(
    private readonly collection: InsertManyTarget,
    opts: { max?: number; lanes?: number; timeoutMs?: number; gatherMs?: number; first?: CompanionTarget } = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_LANE_TIMEOUT_MS;
    this.first = opts.first;
    this.batcher = new SerialBatcher(opts.max ?? 256, (items) => this.write(items), undefined, opts.lanes ?? 2, opts.gatherMs ?? 0);
  }

  /** True when this call inserted the document, false when its unique key existed; other errors throw. */
  insert(doc: object, first?: { _id: unknown; [field: string]: unknown }): Promise<boolean> {
    return new Promise((inserted, failed) => this.batcher.add({ doc, first, inserted, failed }));
  }

  /** Resolves once everything handed in so far is written or refused. */
  drained(): Promise<void> {
    return this.batcher.drained();
  }

  private async write(items: Pending[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    // Past the bound its callers fail as on a timeout (503); should the insert still land, a
    // retried delivery is a duplicate and an event is dispatched by the sweeper.
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new MongoOperationTimeoutError(`insert did not finish within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    const within = (command: Promise<unknown>) => Promise.race([command, bound]);
    try {
      let batch = items;
      if (this.first) {
        const firsts = await insertEach(this.first, items.map((i) => i.first!), within);
        batch = items.filter((item, i) => {
          const outcome = firsts[i]!;
          if (!outcome.stored) item.failed(outcome.err);
          return outcome.stored;
        });
      }
      const outcomes = await insertEach(this.collection, batch.map((i) => i.doc), within);
      // A companion whose document is certainly not stored (a duplicate, a refused document) would
      // be an orphan; one whose insert failed as a whole may still land, so it keeps its companion
      // (retention removes what a crash or such a failure left). Removed before the callers hear.
      const orphans = batch.filter((item, i) => item.first && outcomes[i]!.refused).map((item) => item.first!._id);
      if (orphans.length) await within(this.first!.deleteMany({ _id: { $in: orphans } } as never)).catch(() => undefined);
      batch.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome.stored || outcome.duplicate) item.inserted(outcome.stored);
        else item.failed(outcome.err);
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Inserts `docs` in one unordered insertMany; the fate of each. */
async function insertEach(target: InsertManyTarget, docs: object[], within: (command: Promise<unknown>) => Promise<unknown>): Promise<Outcome[]> {
  if (!docs.length) return [];
  try {
    await within(target.insertMany(docs as never[], { ordered: false }));
    return docs.map(() => ({ stored: true }));
  } catch (err) {
    // Unordered: every document was tried; writeErrors name the ones that failed and why.
    const failed = failedWrites(err);
    if (!failed) return docs.map(() => ({ stored: false, duplicate: false, refused: false, err }));
    const codes = new Map(failed.map((f) => [f.index, f.code]));
    return docs.map((_, i) => (codes.has(i) ? { stored: false, duplicate: codes.get(i) === 11000, refused: true, err } : { stored: true }));
  }
}
