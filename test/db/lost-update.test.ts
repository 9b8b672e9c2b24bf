// FerretDB v1 runs an update as read, change in Go, write the whole document back. Without the
// patch's per-collection turn-taking (ferretdb-patch/atomic-update/relay_atomic_update.go) two updates of
// one document at once both write back what they read, and one's change is lost. MongoDB never
// loses either; these counts are what it would give.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

// Fields are numbers the test sets and increments (any: $inc takes only numeric fields).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Counter = { _id: string; [field: string]: any };
const WRITERS = 8;
const EACH = 60;
const opened: Array<{ db: EmbeddedDb; client: MongoClient; dir: string }> = [];
/** One database per setting, shared by the cases that use it (each writes documents of its own). */
const databases = new Map<boolean, Promise<Collection<Counter>>>();

function collection(atomicUpdates: boolean): Promise<Collection<Counter>> {
  let started = databases.get(atomicUpdates);
  if (!started) {
    started = (async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-lost-update-'));
      const db = await startFerretDb({ dataDir: dir, database: 'lostupdate', atomicUpdates });
      // A connection per writer, so FerretDB serves them at once.
      const client = await MongoClient.connect(db.uri, { maxPoolSize: WRITERS, minPoolSize: WRITERS });
      opened.push({ db, client, dir });
      return client.db().collection<Counter>('counters');
    })();
    databases.set(atomicUpdates, started);
  }
  return started;
}

/** WRITERS clients at once: each increments the shared counter and sets its own field EACH times, and findAndModify-increments a second one. */
async function race(c: Collection<Counter>) {
  await c.insertOne({ _id: 'doc', n: 0, m: 0 });
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 1; i <= EACH; i++) {
        await c.updateOne({ _id: 'doc' }, { $inc: { n: 1 }, $set: { [`w${w}`]: i } });
        await c.findOneAndUpdate({ _id: 'doc' }, { $inc: { m: 1 } });
      }
    }),
  );
  return (await c.findOne({ _id: 'doc' }))!;
}

/**
 * The gateway's shape: a sweep marks every pending document of a group (updateMany) while runners
 * finish them one by one (updateOne). Returns how many finished documents read as pending after.
 */
async function sweepWhileFinishing(c: Collection<Counter>, group: string) {
  const ids = Array.from({ length: 200 }, (_, i) => `${group}-${i}`);
  await c.insertMany(ids.map((_id) => ({ _id, group, status: 'pending' })));
  const sweeps = (async () => {
    for (let round = 1; round <= 10; round++) await c.updateMany({ group, status: 'pending' }, { $set: { sweptAt: round } });
  })();
  const queue = [...ids];
  const runners = Array.from({ length: WRITERS - 1 }, async () => {
    for (let id = queue.shift(); id; id = queue.shift()) await c.updateOne({ _id: id }, { $set: { status: 'succeeded' } });
  });
  await Promise.all([sweeps, ...runners]);
  return c.countDocuments({ group, status: 'pending' });
}

afterAll(async () => {
  for (const { db, client, dir } of opened) {
    await client.close();
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('concurrent updates of one document', () => {
  it('keep every change: each $inc counted, each writer its last $set, through update and findAndModify', async () => {
    const doc = await race(await collection(true));
    expect(doc.n).toBe(WRITERS * EACH);
    expect(doc.m).toBe(WRITERS * EACH);
    for (let w = 0; w < WRITERS; w++) expect(doc[`w${w}`]).toBe(EACH);
  }, 60_000);

  it('hand a conditional findOneAndUpdate to exactly one of many callers, as a lock must', async () => {
    const c = await collection(true);
    for (let trial = 0; trial < 10; trial++) {
      await c.insertOne({ _id: `job-${trial}`, status: 'pending' });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, caller) => c.findOneAndUpdate({ _id: `job-${trial}`, status: 'pending' }, { $set: { status: 'running', by: caller } }, { returnDocument: 'after' })),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect((await c.findOne({ _id: `job-${trial}` }))!.by).toBe(winners[0]!.by);
    }
  }, 60_000);

  // The gateway's sweep marks a group of outcomes while an attempt finishes one of them: a lost
  // update would write the finished outcome back as pending; the database keeps both writes.
  it('keep an updateOne that finishes a document while an updateMany marks its group', async () => {
    expect(await sweepWhileFinishing(await collection(true), 'on')).toBe(0);
  }, 60_000);

  it('lose changes with the turn-taking off (the control: what FerretDB v1 does on its own)', async () => {
    const doc = await race(await collection(false));
    expect((doc.n as number) + (doc.m as number)).toBeLessThan(2 * WRITERS * EACH);
    const lost = await sweepWhileFinishing(await collection(false), 'off');
    expect(lost).toBeGreaterThan(0);
  }, 60_000);
});
