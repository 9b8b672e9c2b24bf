// One lock for processes that build the same output at once (`relay` calls, test files): making a
// folder is atomic, so one process takes it and the others wait; a folder left by a crashed build
// is taken over after a minute.
import fs from 'node:fs';

const STALE_MS = 60_000;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Waits for the lock folder `dir`, then returns the function that releases it. */
export function takeLockFolder(dir, pollMs = 50) {
  for (;;) {
    try {
      fs.mkdirSync(dir);
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
      else sleep(pollMs);
    }
  }
}
