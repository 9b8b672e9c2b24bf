// The embedded database's WAL file is cut back after a burst of writes (journal_size_limit in
// src/db/ferretdb.ts). SQLite reuses the WAL from its start but never shrinks it on its own, so
// without the limit the file stays at its peak: 46 GB beside a 4.3 GB database after seeding
// bench/scale.ts --scale 1 (docs/FERRETDB.md). The second case shows what keeps the WAL from
// restarting at all: an open cursor. The third, reads that overlap without a pause, which the
// patch's restart loop (ferretdb-patch/wal-restart/relay_wal_restart.go) overcomes. How far the WAL
// grows between restarts depends on how fast this machine writes and reads, so the third case
// counts restarts; the peak is a benchmark figure (docs/FERRETDB.md). The last two are what made
// the loop miss in issue 17's runs: another connection's checkpoint holding the lock, and updates
// whose snapshots the restart waited for while they waited for its write lock (the loop's log,
// RELAY_FERRETDB_WAL_LOG, says how each attempt ended).
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

const LIMIT = 512 * 1024;
let dir: string;
let db: EmbeddedDb;
let client: MongoClient;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-wal-'));
  db = await startFerretDb({ dataDir: dir, database: 'walsize', walSizeLimit: LIMIT, walLog: true });
  client = await MongoClient.connect(db.uri);
});

afterAll(async () => {
  await client?.close();
  await db?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * 40 MB of inserts while a reader is always present: the WAL file's peak size, and how often it
 * was seen to shrink (a restart cuts it back to the size limit).
 */
/**
 * A relay of cursors on a collection of `target`: each holds its read snapshot until the next one
 * holds its own, so no moment without a reader ever comes, however slow this process is. Each
 * lives ~20 ms. Call the result to stop it.
 */
async function keepReading(target: MongoClient, name: string): Promise<() => Promise<void>> {
  const source = target.db().collection(name);
  await source.insertMany(Array.from({ length: 2_000 }, (_, i) => ({ i, pad: 'y'.repeat(200) })));
  let reading = true;
  const readers = (async () => {
    let held = source.find({}).batchSize(2);
    await held.next();
    while (reading) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const next = source.find({}).batchSize(2);
      await next.next();
      await held.close();
      held = next;
    }
    await held.close();
  })();
  return () => ((reading = false), readers);
}

async function writeBesideReaders(target: MongoClient, wal: string): Promise<{ peak: number; restarts: number }> {
  const stopReading = await keepReading(target, 'readers');
  const writes = target.db().collection('beside');
  const body = 'x'.repeat(4_000);
  let peak = 0;
  let last = 0;
  let restarts = 0;
  try {
    for (let batch = 0; batch < 100; batch++) {
      await writes.insertMany(Array.from({ length: 100 }, () => ({ body })));
      const size = fs.existsSync(wal) ? fs.statSync(wal).size : 0;
      if (size < last) restarts++;
      last = size;
      peak = Math.max(peak, size);
    }
  } finally {
    await stopReading();
  }
  return { peak, restarts };
}

/**
 * Holds SQLite's checkpoint lock on a database from another process, as another connection's
 * checkpoint does while it runs: an exclusive POSIX lock on byte 121 of the wal-index (the unix
 * VFS's lock bytes start at 120; the checkpoint lock is the second). Perl is part of every Debian.
 */
async function holdCheckpointLock(shm: string): Promise<{ release: () => Promise<void> }> {
  const script =
    'use Fcntl qw(F_SETLK F_WRLCK SEEK_SET); open(my $f, "+<", $ARGV[0]) or die $!; ' +
    'my $lock = pack("s s x4 q q l x4", F_WRLCK, SEEK_SET, 121, 1, 0); fcntl($f, F_SETLK, $lock) or die "lock: $!"; ' +
    '$| = 1; print "locked\n"; <STDIN>;';
  const perl = spawn('perl', ['-e', script, shm], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => perl.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    perl.stdout.once('data', () => resolve());
    perl.once('exit', (code) => reject(new Error(`perl could not take the checkpoint lock (${code})`)));
  });
  return { release: () => (perl.stdin.end(), exited) };
}

/** The restart loop's attempts logged since byte `from` of FerretDB's log (RELAY_FERRETDB_WAL_LOG). */
function restartAttempts(from: number): Array<{ t: string; busy: number; walFrames: number; tries: number; pause: number; error?: string }> {
  const lines = fs.readFileSync(path.join(dir, 'ferretdb.log'), 'utf8').slice(from).split('\n');
  return lines.filter((line) => line.includes('"relayWal"')).map((line) => JSON.parse(line));
}

/** Polls `done` every 50 ms until it holds, for at most `ms`. */
async function until(done: () => boolean, ms = 30_000): Promise<void> {
  for (const end = Date.now() + ms; !done(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > end) throw new Error('condition not met in time');
  }
}

describe('embedded database WAL', () => {
  it('grows during a burst of writes and is cut back to the limit once SQLite restarts it', async () => {
    const wal = path.join(dir, 'walsize.sqlite-wal');
    const size = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    const rows = client.db().collection('burst');
    const body = 'x'.repeat(4_000);
    let peak = 0;
    for (let batch = 0; batch < 30; batch++) {
      await rows.insertMany(Array.from({ length: 100 }, (_, i) => ({ n: batch * 100 + i, body })));
      peak = Math.max(peak, size());
    }
    // SQLite checkpoints at 1,000 pages (4 MB): the burst took the file past that.
    expect(peak).toBeGreaterThan(4 * 1024 * 1024);

    // Small writes until the WAL is checkpointed and restarted; without the limit the file would
    // keep its peak size however many there are.
    const small = client.db().collection('small');
    for (let i = 0; i < 3_000 && size() > LIMIT; i++) await small.insertOne({ i });
    expect(size()).toBeLessThanOrEqual(LIMIT);
    expect(await rows.countDocuments()).toBe(3_000);
  });

  it('cannot be restarted while a cursor is open: FerretDB holds its SQLite read snapshot until the cursor ends', async () => {
    const wal = path.join(dir, 'walsize.sqlite-wal');
    const size = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    const source = client.db().collection('source');
    await source.insertMany(Array.from({ length: 50 }, (_, i) => ({ i })));
    const cursor = source.find({}).batchSize(2);
    await cursor.next();
    const body = 'x'.repeat(4_000);
    const writes = client.db().collection('writes');
    for (let batch = 0; batch < 30; batch++) await writes.insertMany(Array.from({ length: 100 }, () => ({ body })));
    // 12 MB written: with no reader the WAL restarts at each 4 MB checkpoint (the case above).
    expect(size()).toBeGreaterThan(10 * 1024 * 1024);
    await cursor.close();
    for (let i = 0; i < 3_000 && size() > LIMIT; i++) await writes.insertOne({ i });
    expect(size()).toBeLessThanOrEqual(LIMIT);
  });

  it('restarts while readers overlap without a pause, more often and with a smaller peak than without the restart loop', { timeout: 120_000 }, async () => {
    const withLoop = await writeBesideReaders(client, path.join(dir, 'walsize.sqlite-wal'));
    // The control: the same build with the loop off, under the same relay of readers.
    const controlDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-wal-control-'));
    const control = await startFerretDb({ dataDir: controlDir, database: 'control', walSizeLimit: LIMIT, walRestart: false });
    const controlClient = await MongoClient.connect(control.uri);
    try {
      const without = await writeBesideReaders(controlClient, path.join(controlDir, 'control.sqlite-wal'));
      // SQLite restarts the WAL by itself in the rare moment when a new reader's snapshot begins at a
      // fully checkpointed WAL (such a reader pins no frame), so the control may see one; the loop
      // restarts it every 2,000 frames (here 53 MB peak and no restart without it, 14-21 MB and 3-4 with it).
      expect(without.restarts).toBeLessThan(withLoop.restarts);
      expect(withLoop.peak).toBeLessThan(without.peak);
    } finally {
      await controlClient.close();
      await control.stop();
      fs.rmSync(controlDir, { recursive: true, force: true });
    }
    // Restarted past 2,000 frames once the readers of the moment have finished.
    expect(withLoop.restarts).toBeGreaterThanOrEqual(1);
  });

  it('restarts once another checkpoint lets go of the lock, having tried again within each tick and never backed off', { timeout: 120_000 }, async () => {
    const wal = path.join(dir, 'walsize.sqlite-wal');
    const from = fs.statSync(path.join(dir, 'ferretdb.log')).size;
    const attempts = () => restartAttempts(from);
    const metTheLock = () => attempts().filter((a) => a.busy === 1 && a.walFrames === -1);

    const writes = client.db().collection('checkpointed');
    await writes.insertOne({ first: true }); // the database and its wal-index exist
    const lock = await holdCheckpointLock(path.join(dir, 'walsize.sqlite-shm'));
    try {
      // No checkpoint runs while the lock is held, so the WAL keeps all 12 MB: past the loop's 2,000 frames.
      const body = 'x'.repeat(4_000);
      for (let batch = 0; batch < 30; batch++) await writes.insertMany(Array.from({ length: 100 }, () => ({ body })));
      // Before the fix, the fourth such miss in a row paused the loop for 2, then 4, ... 40 ticks.
      await until(() => metTheLock().length >= 5);
    } finally {
      await lock.release();
    }
    // A restart that ran: an attempt that failed with an error is logged with busy 0 too.
    await until(() => attempts().some((a) => a.busy === 0 && a.error === undefined));
    expect(fs.statSync(wal).size).toBeLessThanOrEqual(LIMIT);
    // Each attempt that met the lock kept trying for its busy timeout, and none was counted as a
    // miss: writers were not held, so there was no reason to space the tries out.
    expect(metTheLock().every((a) => a.tries > 1)).toBe(true);
    expect(attempts().every((a) => a.pause === 0)).toBe(true);
  });

  it('restarts beside updates that read, then wait to write back: the restart lets those in flight finish first', { timeout: 180_000 }, async () => {
    const pad = 'p'.repeat(1_000);
    const collections = [0, 1, 2, 3].map((c) => client.db().collection(`updated${c}`));
    for (const docs of collections) await docs.insertMany(Array.from({ length: 250 }, (_, i) => ({ i, pad })));
    const stopReading = await keepReading(client, 'updatereaders');
    const from = fs.statSync(path.join(dir, 'ferretdb.log')).size;
    const restarts = () => restartAttempts(from).filter((a) => a.busy === 0).length;
    // Updates of four collections at once, back to back (each collection's take turns), each
    // keeping its query's read snapshot while it writes back 250 documents, waiting for SQLite's
    // write lock. A restart that took the write lock and then waited for their snapshots waited
    // for commands that waited for it, and missed (the misses of issue 17's runs: 0 restarts in
    // 7 attempts here); it now lets the updates in flight finish and holds the next ones back.
    try {
      await Promise.all(
        collections.map(async (docs) => {
          for (let round = 0; round < 50 && restarts() < 3; round++) await docs.updateMany({}, { $set: { pad: `${round}`.padEnd(1_000, 'q') } });
        }),
      );
    } finally {
      await stopReading();
    }
    expect(restarts()).toBeGreaterThanOrEqual(3);
  });
});
