// The response deadline (issue 7, property 13): a request whose handlers have not finished within
// REQUEST_TIMEOUT_MS answers 503 `request_timeout`, because a driver operation can hang for good
// (docs/FERRETDB.md, "A pooled operation written to a destroyed socket") and would hold the client.
import type { Context, Next } from 'koa';
import type { Clock } from '../clock.ts';
import { AppError } from './errors.ts';
import { loggablePath, type Logger } from '../observability/logger.ts';

export function responseDeadline(timeoutMs: number, logger: Logger, clock: Clock) {
  return async function withinDeadline(ctx: Context, next: Next) {
    const startedAt = clock.now().getTime();
    const work = next();
    let timer: NodeJS.Timeout | undefined;
    // Only the wait for the response to start is bounded. A 2.0 stream writes its head and keeps
    // next() pending until its last chunk; once the head is out the response is the stream's.
    const expired = new Promise<true>((resolve) => {
      timer = setTimeout(() => {
        if (!ctx.res.headersSent) resolve(true);
      }, timeoutMs);
    });
    try {
      if (!(await Promise.race([work.then(() => false as const), expired]))) return;
    } finally {
      clearTimeout(timer);
    }
    // The abandoned handler cannot be stopped. Koa ignores its status, header and body changes once
    // the 503 is sent; its outcome is logged here so a late failure is never an unhandled rejection.
    const request = { method: ctx.method, path: loggablePath(ctx.path), timeoutMs };
    work.then(
      () => logger.warn({ ...request, afterMs: clock.now().getTime() - startedAt }, 'request finished after its deadline'),
      (err) => logger.warn({ ...request, err, afterMs: clock.now().getTime() - startedAt }, 'request failed after its deadline'),
    );
    throw new AppError('request_timeout', `The request did not finish within ${timeoutMs} ms; retry shortly`);
  };
}
