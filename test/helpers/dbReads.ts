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

/**
 * The commands the driver sends while `fn` runs, as `name collection` (sorted): unlike the debug
 * hook, this also sees what goes around mongoose's models (the lists' `count`). The runtime must be
 * started with `monitorCommands: true`.
 */
export async function commandsSent(fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const record = (e: { commandName: string; command: Record<string, unknown> }) => void sent.push(`${e.commandName} ${String(e.command[e.commandName])}`);
  const client = mongoose.connection.getClient();
  client.on('commandStarted', record);
  try {
    await fn();
  } finally {
    client.off('commandStarted', record);
  }
  return sent.sort();
}

/**
 * `fn`'s result and the find commands the driver sent while it ran, as [collection, filter] in the
 * order sent: what a request reads, through mongoose's models or around them (the lists' pages,
 * db/find.ts). The runtime must be started with `monitorCommands: true`.
 */
export async function findsSent<T>(fn: () => Promise<T>): Promise<{ result: T; finds: Array<[string, any]> }> {
  const finds: Array<[string, any]> = [];
  const record = (e: { commandName: string; command: Record<string, any> }) => {
    if (e.commandName === 'find') finds.push([String(e.command.find), e.command.filter ?? {}]);
  };
  const client = mongoose.connection.getClient();
  client.on('commandStarted', record);
  try {
    return { result: await fn(), finds };
  } finally {
    client.off('commandStarted', record);
  }
}
