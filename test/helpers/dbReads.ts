// What the driver sends while a request or a job runs, seen through command monitoring (the runtime
// must be started with `monitorCommands: true`): reads through mongoose's models and around them
// (db/find.ts), so a test can say that a request reads what it returns and nothing else.
import mongoose from 'mongoose';

type Started = { commandName: string; command: Record<string, any> };

/** Runs `fn` with `record` called for every command the driver starts meanwhile. */
async function watchCommands<T>(fn: () => Promise<T>, record: (e: Started) => void): Promise<T> {
  const client = mongoose.connection.getClient();
  client.on('commandStarted', record);
  try {
    return await fn();
  } finally {
    client.off('commandStarted', record);
  }
}

/** The commands the driver sends while `fn` runs, as `name collection`, sorted unless `inOrder`. */
export async function commandsSent(fn: () => Promise<unknown>, { inOrder = false } = {}): Promise<string[]> {
  const sent: string[] = [];
  await watchCommands(fn, (e) => void sent.push(`${e.commandName} ${String(e.command[e.commandName])}`));
  return inOrder ? sent : sent.sort();
}

const READS = new Set(['find', 'aggregate', 'count', 'distinct']);

/** The collections `fn` reads (find, aggregate, count and distinct commands), sorted. */
export async function collectionsRead(fn: () => Promise<unknown>): Promise<string[]> {
  const read: string[] = [];
  await watchCommands(fn, (e) => {
    if (READS.has(e.commandName)) read.push(String(e.command[e.commandName]));
  });
  return read.sort();
}

/** `fn`'s result and the find commands the driver sent while it ran, as [collection, filter] in the order sent. */
export async function findsSent<T>(fn: () => Promise<T>): Promise<{ result: T; finds: Array<[string, any]> }> {
  const finds: Array<[string, any]> = [];
  const result = await watchCommands(fn, (e) => {
    if (e.commandName === 'find') finds.push([String(e.command.find), e.command.filter ?? {}]);
  });
  return { result, finds };
}
