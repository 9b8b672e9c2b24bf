// Runs async work one at a time per key inside this process. FerretDB v1 applies concurrent
// updates to one document as unisolated read-modify-writes (concurrent $inc and conditional updates
// lose writes; see docs/FERRETDB.md), so chat serialises its own writes to a team's usage counter
// and to a conversation's state. On MongoDB the updates are atomic by themselves.
const tails = new Map<string, Promise<unknown>>();

export async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
