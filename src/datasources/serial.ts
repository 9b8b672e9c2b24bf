// Runs async work one at a time per key inside this process: a data source create counts the bot's
// sources and then inserts, and two concurrent creates must not both pass the plan's limit. Across
// processes the count-then-insert can still race (on MongoDB too); the limit is a plan guard, not
// an invariant anything else relies on.
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
