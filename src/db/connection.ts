// The mongoose connection: one per process, from MONGODB_URI or the embedded FerretDB.
import mongoose from 'mongoose';

mongoose.set('strictQuery', true);
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
