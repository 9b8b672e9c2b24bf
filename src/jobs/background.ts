// A one-off task a worker runs beside traffic after its start, such as an upgrade of stored rows
// that takes minutes at full size: not awaited, so a supervisor does not take the worker for dead,
// and told to stop (between its batches) when the worker stops.
export interface BackgroundTask {
  /** Asks the task to stop and waits until it has. */
  stop(): Promise<void>;
}

/** Starts `run` without waiting for it; a failure goes to `onError` (the next start tries again). */
export function startInBackground(run: (signal: AbortSignal) => Promise<void>, onError: (err: unknown) => void): BackgroundTask {
  const controller = new AbortController();
  const done = run(controller.signal).catch(onError);
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
