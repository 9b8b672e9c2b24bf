// A client that goes away mid-stream stops generation: the answerer gets an aborted signal and the
// turn saves what was produced so far. The default AbortError reason matters: the ai SDK treats
// any other reason as a failed call rather than an abort.
import type { ServerResponse } from 'node:http';

export function abortOnDisconnect(res: ServerResponse): AbortController {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller;
}
