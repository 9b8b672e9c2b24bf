// The single error path: typed errors, body-parser errors and database errors become
// `{ success: false, code, message }` with the right status. Stack traces are logged, never sent.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import mongoose from 'mongoose';
import { AppError, ERROR_STATUS, type ErrorCode } from './errors.ts';
import { isTransientDatabaseError } from '../db/errors.ts';
import { loggablePath, type Logger } from '../observability/logger.ts';

const UNANSWERED: Record<number, () => AppError> = {
  404: () => new AppError('not_found', 'Not found'),
  405: () => new AppError('method_not_allowed', 'This method is not allowed here; the Allow header lists those that are'),
  501: () => new AppError('not_implemented', 'This method is not implemented'),
};

/** Maps anything thrown below the edge to an AppError; unknown errors become 500. */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isTransientDatabaseError(err)) return new AppError('database_unavailable', 'The database is unavailable or overloaded; retry shortly');
  if (err instanceof mongoose.Error.ValidationError) return new AppError('validation_failed', err.message);
  if (err instanceof mongoose.Error.CastError) return new AppError('bad_request', `Invalid value for ${err.path}`);
  const e = err as { status?: number; type?: string; code?: number };
  if (e?.code === 11000) return new AppError('conflict', 'Already exists');
  // Errors raised by koa-body / co-body / raw-body carry an HTTP status and a type.
  if (e?.status === 413 || e?.type === 'entity.too.large') return new AppError('payload_too_large', 'Request body is too large');
  if (e?.status === 415) return new AppError('unsupported_media_type', 'Content-Type must be application/json');
  if (e?.status === 400 && (e?.type === 'entity.parse.failed' || err instanceof SyntaxError)) {
    return new AppError('invalid_json', 'Request body is not valid JSON');
  }
  if (e?.status && e.status >= 400 && e.status < 500) {
    const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === e.status) ?? 'bad_request';
    return new AppError(code, (err as Error).message || 'Bad request');
  }
  return undefined;
}

export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      // Koa and the router's allowedMethods() leave these bodiless (Koa would send plain text).
      if (ctx.body === undefined) {
        const unanswered = UNANSWERED[ctx.status];
        if (unanswered) throw unanswered();
      }
    } catch (err) {
      const appError = toAppError(err);
      if (appError) {
        ctx.status = appError.status;
        ctx.body = { success: false, code: appError.code, message: appError.message, ...appError.extra };
        // Every 503 is a passing condition (an outage, an overload, a request past its deadline).
        if (appError.status === 503) ctx.set('Retry-After', '5');
        // A method no route implements (TRACE, PROPFIND) is the caller's doing, and anyone can send
        // one: info, without a stack, so the error log cannot be flooded without credentials (L1).
        if (appError.code === 'not_implemented') logger.info({ code: appError.code, method: ctx.method, path: loggablePath(ctx.path) }, appError.message);
        else if (appError.status >= 500) logger.error({ err, method: ctx.method, path: loggablePath(ctx.path) }, appError.message);
        return;
      }
      const requestId = randomUUID();
      logger.error({ err, requestId, method: ctx.method, path: loggablePath(ctx.path) }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { success: false, code: 'internal_error', message: 'Internal error', requestId };
    }
  };
}
