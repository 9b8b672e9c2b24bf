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
