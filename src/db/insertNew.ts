// Inserts that treat an existing `_id` (or other unique key) as "already done": the way a record
// is written exactly once across processes on FerretDB v1, whose unique indexes hold while its
// conditional updates are not atomic.

/** Inserts every document it can (unordered); returns the indexes of those that already existed. */
export async function insertNew(collection: { insertMany(docs: never[], options: { ordered: false }): Promise<unknown> }, docs: object[]): Promise<Set<number>> {
  if (!docs.length) return new Set();
  try {
    await collection.insertMany(docs as never[], { ordered: false });
    return new Set();
  } catch (err) {
    const writeErrors = (err as { writeErrors?: Array<{ index?: number; code?: number; err?: { index?: number; code?: number } }> }).writeErrors;
    if (!writeErrors?.length || writeErrors.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
    return new Set(writeErrors.map((e) => e.index ?? e.err?.index ?? -1));
  }
}
