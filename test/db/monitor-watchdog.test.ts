// The driver's server monitor stalls when a heartbeat is written to a socket destroyed but not yet
// closed (driver 7.8; docs/FERRETDB.md, "Recovering from an outage under load", cause 3). The test
// provokes that race on purpose: it destroys the monitor's socket and asks for a check in the same
// tick (driver internals, here only, to trigger the bug), then fails an operation in flight as the
// database stopping does. Without the watchdog the client never recovers; with it, the same MongoClient is restarted and the Db handle
// taken before (as Agenda holds one) works again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';
import { connectDatabase, disconnectDatabase, monitorWatchdog } from '../../src/db/connection.ts';
import type { WatchdogEvent } from '../../src/db/monitorWatchdog.ts';
import { waitFor } from '../helpers/harness.ts';

const Probe = mongoose.model('MonitorProbe', new mongoose.Schema({ at: Date }), 'probe');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const topologyOf = (client: MongoClient): any => (client as any).topology;

/** Destroys the monitor's socket and starts a heartbeat before the socket's 'close' event. */
async function stallMonitor(client: MongoClient): Promise<void> {
  const monitor = [...topologyOf(client).s.servers.values()][0].monitor;
  // An idle monitor with a connection, its last check over 500 ms ago (minHeartbeatFrequencyMS):
  // then requestCheck() runs the check at once, in this tick, before the socket's 'close' event.
  await waitFor(
    () => monitor.s.state === 'idle' && monitor.connection != null && performance.now() - monitor.monitorId.lastExecutionEnded > 600,
    15_000,
  );
  let ended = 0;
  const onEnd = () => ended++;
  client.on('serverHeartbeatSucceeded', onEnd);
  client.on('serverHeartbeatFailed', onEnd);
  monitor.connection.socket.destroy();
  monitor.requestCheck();
  await sleep(1_500);
  client.off('serverHeartbeatSucceeded', onEnd);
  client.off('serverHeartbeatFailed', onEnd);
  expect(monitor.s.state).toBe('monitoring');
  expect(ended).toBe(0);
  // The heartbeat waits in Connection.writeCommand for a 'drain' a destroyed socket never emits.
  expect(monitor.connection.socket.destroyed).toBe(true);
  expect(monitor.connection.socket.listenerCount('drain')).toBe(1);
}

/**
 * Fails an operation with "connection N closed", as the database stopping under load does to the
 * operations in flight: that network error marks the server Unknown, and only the monitor marks it
 * known again. The connection is closed as it is checked out, before the command is written.
 */
async function failInFlight(client: MongoClient, handle: Db): Promise<void> {
  const server = [...topologyOf(client).s.servers.values()][0];
  client.once('connectionCheckedOut', () => server.pool.checkedOut.forEach((c: { destroy(): void }) => c.destroy()));
  expect(await attempt(handle)).toMatch(/closed|Server selection timed out/);
}

async function attempt(db: Db): Promise<string> {
  try {
    await db.collection('probe').insertOne({ at: new Date() });
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('server monitor watchdog', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-monitor-'));
  let db: EmbeddedDb;

  beforeAll(async () => {
    db = await startFerretDb({ dataDir: dir, database: 'monitor' });
  });
  afterAll(async () => {
    await disconnectDatabase().catch(() => undefined);
    await db?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without it, a stalled monitor leaves the client failing while the database is up', async () => {
    const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 1_000 });
    try {
      await client.connect();
      const handle = client.db();
      expect(await attempt(handle)).toBe('ok');
      await stallMonitor(client);
      await failInFlight(client, handle);
      // The database is up all along; the client fails every operation with the old error.
      const results: string[] = [];
      for (let i = 0; i < 3; i++) results.push(await attempt(handle));
      await sleep(3_000);
      results.push(await attempt(handle));
      expect(results).toEqual(results.map(() => expect.stringMatching(/connection \d+ to .* closed/)));
    } finally {
      await client.close(true);
    }
  });

  it('restarts the client, and a Db handle taken before works again', async () => {
    const events: WatchdogEvent[] = [];
    // Checked by the test only (checkEveryMs), so the restart comes after the failure is seen.
    await connectDatabase(db.uri, { watchdog: { stallAfterMs: 1_000, checkEveryMs: 3_600_000, onEvent: (e) => events.push(e) } });
    const handle = mongoose.connection.db!; // what createScheduler hands to Agenda
    expect(await attempt(handle)).toBe('ok');
    await stallMonitor(mongoose.connection.getClient());
    await failInFlight(mongoose.connection.getClient(), handle);
    expect(await attempt(handle)).toMatch(/connection \d+ to .* closed/);
    await monitorWatchdog()!.check();
    expect(events.map((e) => e.type)).toContain('stalled');
    expect(monitorWatchdog()!.restarts).toBe(1);
    await waitFor(async () => (await attempt(handle)) === 'ok', 20_000);
    expect(await handle.collection('probe').countDocuments()).toBeGreaterThan(1);
    await waitFor(() => mongoose.connection.readyState === 1, 10_000);
    expect(await Probe.countDocuments()).toBeGreaterThan(1);
  });

  it('keeps reconnecting while the database is away, and recovers once it is back', async () => {
    const events: WatchdogEvent[] = [];
    await disconnectDatabase();
    await connectDatabase(db.uri, { watchdog: { stallAfterMs: 1_000, checkEveryMs: 3_600_000, retryEveryMs: 200, onEvent: (e) => events.push(e) } });
    const handle = mongoose.connection.db!;
    await stallMonitor(mongoose.connection.getClient());
    await failInFlight(mongoose.connection.getClient(), handle);
    await db.stop();
    const restart = monitorWatchdog()!.check();
    await waitFor(() => events.some((e) => e.type === 'restart-failed'), 30_000);
    expect(await attempt(handle)).not.toBe('ok');
    db = await startFerretDb({ dataDir: dir, port: db.port, database: 'monitor' });
    await restart;
    expect(events.at(-1)).toMatchObject({ type: 'restarted' });
    await waitFor(async () => (await attempt(handle)) === 'ok', 20_000);
  });
});
