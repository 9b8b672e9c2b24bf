// Restarts the MongoClient when the driver's server monitor has stalled: a correctness guard the
// patch does not touch (test/db/monitor-watchdog.test.ts, test/reliability/db-outage-load.test.ts).
//
// MongoDB driver 7.8: a heartbeat whose `hello` is written to a socket that was already destroyed
// but has not yet emitted 'close' (the peer closed it in the same event-loop turn) waits for a
// 'drain' event that never comes: `socket.write` returns false and a destroyed socket emits neither
// 'drain' nor 'error', and its socket timeout cannot fire. The heartbeat never ends, the monitor
// stays "monitoring" and ignores every check request, and once an operation has marked the server
// Unknown every later one fails server selection with that old error, for good. (Against a server
// that reports a topologyVersion the driver resets the monitor on a network error; FerretDB v1
// reports none.)
//
// The driver bounds every heartbeat it starts: the TCP connect and the handshake by connectTimeoutMS
// each, a polled `hello` by connectTimeoutMS, an awaited one by connectTimeoutMS + heartbeatFrequencyMS.
// A heartbeat outstanding well past that has stalled. The watchdog sees this through the public
// SDAM events only and then closes and reconnects the same MongoClient: its Db and Collection
// handles (Agenda's, mongoose's) look the client's topology up per operation, so they stay valid.
import type { MongoClient } from 'mongodb';

export interface MonitorWatchdogOptions {
  /** A heartbeat outstanding this long is taken as stalled. */
  stallAfterMs: number;
  /** How often outstanding heartbeats are checked. */
  checkEveryMs?: number;
  /** Wait between reconnect attempts while the database is still away. */
  retryEveryMs?: number;
  now?: () => number;
  /** Told about each stall found and each restart's outcome (for logging). */
  onEvent?: (event: WatchdogEvent) => void;
}

export type WatchdogEvent =
  | { type: 'stalled'; address: string; outstandingMs: number }
  | { type: 'restarted'; attempts: number }
  | { type: 'restart-failed'; attempt: number; err: unknown };

export interface MonitorWatchdog {
  /** Checks the outstanding heartbeats now; resolves when a restart it started has finished. */
  check(): Promise<void>;
  readonly restarts: number;
  /** Stops watching; resolves once a restart in progress has finished. */
  stop(): Promise<void>;
}

/** The bound above, plus slack for a busy event loop. */
export function stallLimitMs(opts: { connectTimeoutMS: number; heartbeatFrequencyMS: number }): number {
  return 2 * opts.connectTimeoutMS + opts.heartbeatFrequencyMS + 10_000;
}

export function watchMonitor(client: MongoClient, opts: MonitorWatchdogOptions): MonitorWatchdog {
  const now = opts.now ?? Date.now;
  const outstanding = new Map<string, number>();
  let restarting: Promise<void> | null = null;
  let stopped = false;
  let restarts = 0;

  const onStarted = (e: { connectionId: string }) => outstanding.set(e.connectionId, now());
  const onEnded = (e: { connectionId: string }) => outstanding.delete(e.connectionId);
  client.on('serverHeartbeatStarted', onStarted);
  client.on('serverHeartbeatSucceeded', onEnded);
  client.on('serverHeartbeatFailed', onEnded);

  async function restart(): Promise<void> {
    // The stalled monitor belongs to the topology being closed; its heartbeat never ends.
    outstanding.clear();
    await client.close().catch(() => undefined);
    for (let attempt = 1; !stopped; attempt++) {
      try {
        await client.connect();
        restarts++;
        opts.onEvent?.({ type: 'restarted', attempts: attempt });
        return;
      } catch (err) {
        opts.onEvent?.({ type: 'restart-failed', attempt, err });
        await new Promise((resolve) => setTimeout(resolve, opts.retryEveryMs ?? 2_000).unref());
      }
    }
  }

  function check(): Promise<void> {
    if (restarting) return restarting;
    if (stopped) return Promise.resolve();
    const t = now();
    for (const [address, since] of outstanding) {
      if (t - since <= opts.stallAfterMs) continue;
      opts.onEvent?.({ type: 'stalled', address, outstandingMs: t - since });
      restarting = restart().finally(() => (restarting = null));
      return restarting;
    }
    return Promise.resolve();
  }

  const timer = setInterval(() => void check(), opts.checkEveryMs ?? 5_000);
  timer.unref();

  return {
    check,
    get restarts() {
      return restarts;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      client.off('serverHeartbeatStarted', onStarted);
      client.off('serverHeartbeatSucceeded', onEnded);
      client.off('serverHeartbeatFailed', onEnded);
      await restarting;
    },
  };
}
