// A cursor read one batch ahead. The driver asks for the next batch only when the current one is
// used up, so a consumer that works on each batch (the sync's chunking) and the database's reading
// take turns. Here the next `getMore` is on the wire while the caller works on the current batch:
// on FerretDB that decoding runs in its own process, on the other core.
import { setImmediate as turn } from 'node:timers/promises';
import type { AbstractCursor } from 'mongodb';

export async function* batchesAhead<T>(cursor: AbstractCursor<T>): AsyncGenerator<T[]> {
  let more = cursor.hasNext();
  try {
    while (await more) {
      const batch = cursor.readBufferedDocuments();
      more = cursor.hasNext();
      // One turn of the event loop lets the driver write the request before the caller's
      // synchronous work starts.
      await turn();
      yield batch;
    }
  } finally {
    // A consumer that stops early leaves a request in flight: its outcome no longer matters.
    more.catch(() => undefined);
    await cursor.close();
  }
}
