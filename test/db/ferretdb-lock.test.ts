// One FerretDB per data directory (src/db/ferretdb.ts, lockDataDir): two on the same SQLite files
// corrupt them, so a second start is refused while the first runs, and the first keeps serving.
// A lock left by a launcher that died is taken over once stale; a stopped one frees it at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { EmbeddedDbUnavailable, startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-ferretdb-lock-'));
const running: EmbeddedDb[] = [];
afterAll(async () => {
  for (const db of running) await db.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

async function start(dir: string): Promise<EmbeddedDb> {
  const db = await startFerretDb({ dataDir: dir, database: 'locktest' });
  running.push(db);
  return db;
}
async function withClient<T>(db: EmbeddedDb, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(db.uri, { directConnection: true });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('the embedded database directory lock', () => {
  it('refuses a second FerretDB on a directory in use, keeps the first serving, and frees it on stop', async () => {
    const dir = path.join(root, 'shared');
    const first = await start(dir);
    await withClient(first, (c) => c.db().collection('notes').insertOne({ _id: 'a' as never, text: 'kept' }));

    const refused = await start(dir).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(EmbeddedDbUnavailable);
    expect((refused as Error).message).toBe(`${dir} is in use by another FerretDB (ferretdb.lock is held): stop it, or use another data directory`);
    expect(await withClient(first, (c) => c.db().collection('notes').findOne({ _id: 'a' as never }))).toEqual({ _id: 'a', text: 'kept' });

    await first.stop();
    const next = await start(dir);
    expect(await withClient(next, (c) => c.db().collection('notes').countDocuments())).toBe(1);
  }, 60_000);

  it('takes over a lock its launcher left behind when it died', async () => {
    const dir = path.join(root, 'crashed');
    fs.mkdirSync(path.join(dir, 'ferretdb.lock'), { recursive: true });
    // Not renewed for a minute: its launcher is gone (a live one renews it every 5 s).
    const minuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'ferretdb.lock'), minuteAgo, minuteAgo);
    const db = await start(dir);
    expect(await withClient(db, (c) => c.db().collection('notes').countDocuments())).toBe(0);
  }, 60_000);
});
