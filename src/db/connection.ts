// The mongoose connection: one per process, from MONGODB_URI or the embedded FerretDB.
import mongoose from 'mongoose';

mongoose.set('strictQuery', true);
// NoSQL injection guard (issue 7): a filter value that is an object with `$` keys is matched as a
// literal (`{ $eq: value }`), so `{ "$ne": null }` smuggled into an id matches nothing. Our own
// operator filters opt out explicitly with mongoose.trusted(...); $where/$expr are refused outright.
mongoose.set('sanitizeFilter', true);
// Indexes are built explicitly by ensureIndexes() before the server takes traffic.
mongoose.set('autoIndex', false);

export async function connectDatabase(uri: string): Promise<typeof mongoose> {
  // Fail fast instead of queueing when the database is away; the edge maps it to 503.
  mongoose.set('bufferTimeoutMS', 3_000);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 5_000 });
  return mongoose;
}

/** Creates every index declared by the registered models. Call after all models are imported. */
export async function ensureIndexes(): Promise<void> {
  for (const name of mongoose.modelNames()) {
    await mongoose.model(name).createIndexes();
  }
}

export async function disconnectDatabase(): Promise<void> {
  await mongoose.disconnect();
}

export function databaseIsConnected(): boolean {
  return mongoose.connection.readyState === 1;
}

/**
 * Marks an operator object written by our own code (`{ $lt: cutoff }`, `{ $in: ids }`) so that
 * sanitizeFilter keeps it an operator. Never wrap a value that came from a request.
 */
export function trusted<const T extends object>(operators: T): T {
  return mongoose.trusted(operators);
}
