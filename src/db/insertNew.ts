// Inserts that treat an existing `_id` (or other unique key) as "already done": a record written
// exactly once across processes and retries by its unique index, alike on MongoDB and FerretDB
// (the webhooks' and gateway's duplicate tests, e.g. test/webhooks/workers.test.ts).

export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

/** The failed documents of an unordered bulk insert (driver and mongoose shapes), or null for any other error. */
export function failedWrites(err: unknown): Array<{ index: number; code: number | undefined }> | null {
  const writeErrors = (err as { writeErrors?: Array<{ index?: number; code?: number; err?: { index?: number; code?: number } }> }).writeErrors;
  if (!writeErrors?.length) return null;
  return writeErrors.map((e) => ({ index: e.index ?? e.err?.index ?? -1, code: e.code ?? e.err?.code }));
}

/** Runs one insert: true when it inserted, false when the key existed already; other errors throw. */
export async function insertedOnce(insert: Promise<unknown>): Promise<boolean> {
  try {
    await insert;
    return true;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
}

/** Inserts every document it can (unordered); returns the indexes of those that already existed. */
export async function insertNew(collection: { insertMany(docs: never[], options: { ordered: false }): Promise<unknown> }, docs: object[]): Promise<Set<number>> {
  if (!docs.length) return new Set();
  try {
    await collection.insertMany(docs as never[], { ordered: false });
    return new Set();
  } catch (err) {
    const failed = failedWrites(err);
    if (!failed || failed.some((f) => f.code !== 11000)) throw err;
    return new Set(failed.map((f) => f.index));
  }
}
