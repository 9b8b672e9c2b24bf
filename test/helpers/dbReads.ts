// What the driver sends while a request or a job runs, seen through command monitoring (the runtime
// must be started with `monitorCommands: true`): commands through mongoose's models and around them
// (db/find.ts), so a test can say that a request reads what it returns and nothing else, or count
// what a path writes.
import mongoose from 'mongoose';
import type { CommandStartedEvent } from 'mongodb';

/** Runs `fn` with `record` called for every command the driver starts meanwhile. */
export async function watchCommands<T>(fn: () => Promise<T>, record: (e: CommandStartedEvent) => void): Promise<T> {
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

/** A read command's filter: find's `filter`, count's and distinct's `query`, an aggregation's first `$match`. */
function filterOf(e: CommandStartedEvent): any {
  if (e.commandName === 'find') return e.command.filter ?? {};
  if (e.commandName === 'aggregate') return e.command.pipeline?.[0]?.$match ?? {};
  return e.command.query ?? {};
}

/**
 * `fn`'s result and the reads (find, aggregate, count and distinct commands) the driver sent while
 * it ran, as [collection, filter] in the order sent.
 */
export async function readsSent<T>(fn: () => Promise<T>): Promise<{ result: T; reads: Array<[string, any]> }> {
  const reads: Array<[string, any]> = [];
  const result = await watchCommands(fn, (e) => {
    if (READS.has(e.commandName)) reads.push([String(e.command[e.commandName]), filterOf(e)]);
  });
  return { result, reads };
}

/** The collections `fn` reads, sorted. */
export async function collectionsRead(fn: () => Promise<unknown>): Promise<string[]> {
  return (await readsSent(fn)).reads.map(([collection]) => collection).sort();
}
