// One total deadline per outbound request, merged with the caller's abort signal.
export interface Deadline {
  /** Aborts when the deadline passes or the caller aborts. */
  signal: AbortSignal;
  timedOut(): boolean;
  /**
   * Settles with `work`, or rejects as soon as the signal aborts, even if `work` ignores the
   * signal (undici does not abort a request still waiting on DNS or connect). A value that
   * arrives after losing the race goes to `onLate` so it can be released.
   */
  race<T>(work: Promise<T>, onLate?: (value: T) => void): Promise<T>;
  dispose(): void;
}

export function startDeadline(ms: number, callerSignal?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    if (controller.signal.aborted) return; // the caller aborted first: not a timeout
    timedOut = true;
    controller.abort(new Error(`outbound total timeout of ${ms} ms`));
  }, ms);
  // A listener removed in dispose(), not AbortSignal.any: callers pass one long-lived shutdown
  // signal to every send, and AbortSignal.any on a long-lived signal leaks (nodejs/node#55351).
  const forwardCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardCallerAbort();
  else callerSignal?.addEventListener('abort', forwardCallerAbort, { once: true });
  const signal = controller.signal;
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // the rejection is consumed by race(); never unhandled

  return {
    signal,
    timedOut: () => timedOut,
    race<T>(work: Promise<T>, onLate?: (value: T) => void): Promise<T> {
      let settled = false;
      work.then(
        (value) => {
          if (settled && onLate) onLate(value);
        },
        () => {},
      );
      return Promise.race([work, aborted]).finally(() => {
        settled = true;
      });
    },
    dispose() {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      callerSignal?.removeEventListener('abort', forwardCallerAbort);
    },
  };
}
