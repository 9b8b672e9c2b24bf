// Which collections the models touch while a request runs: mongoose's debug hook sees every model
// call, so a test can say that a request reads what it returns and nothing else.
import mongoose from 'mongoose';

export async function collectionsRead(fn: () => Promise<unknown>): Promise<string[]> {
  const read: string[] = [];
  mongoose.set('debug', (collection: string) => void read.push(collection));
  try {
    await fn();
  } finally {
    mongoose.set('debug', false);
  }
  return read.sort();
}

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

/**
 * The commands the driver sends while `fn` runs, as `name collection`, sorted unless `inOrder`:
 * unlike the debug hook, this also sees what goes around mongoose's models (the lists' `count`, the
 * pages' find commands). The runtime must be started with `monitorCommands: true`.
 */
export async function commandsSent(fn: () => Promise<unknown>, { inOrder = false } = {}): Promise<string[]> {
  const sent: string[] = [];
  await watchCommands(fn, (e) => void sent.push(`${e.commandName} ${String(e.command[e.commandName])}`));
  return inOrder ? sent : sent.sort();
}

/**
 * `fn`'s result and the find commands the driver sent while it ran, as [collection, filter] in the
 * order sent: what a request reads, through mongoose's models or around them (the lists' pages,
 * db/find.ts). The runtime must be started with `monitorCommands: true`.
 */
export async function findsSent<T>(fn: () => Promise<T>): Promise<{ result: T; finds: Array<[string, any]> }> {
  const finds: Array<[string, any]> = [];
  const result = await watchCommands(fn, (e) => {
    if (e.commandName === 'find') finds.push([String(e.command.find), e.command.filter ?? {}]);
  });
  return { result, finds };
}
