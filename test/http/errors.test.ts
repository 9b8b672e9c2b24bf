// The closed set of error codes and the one mapping from anything thrown to the spec's error body.
import { describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import Koa from 'koa';
import request from 'supertest';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../src/http/errors.ts';
import { errorMiddleware, toAppError } from '../../src/http/errorMiddleware.ts';
import { createLogger } from '../../src/observability/logger.ts';

function appThrowing(err: unknown) {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('silent')));
  app.use(() => {
    throw err;
  });
  return request(app.callback());
}

describe('error mapping', () => {
  it('renders every code with its status and success: false', async () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      const res = await appThrowing(new AppError(code, `message for ${code}`)).get('/');
      expect(res.status).toBe(ERROR_STATUS[code]);
      expect(res.body).toEqual({ success: false, code, message: `message for ${code}` });
    }
  });

  it('maps database, validation and parser errors to typed errors', () => {
    const selection = Object.assign(new Error('no server'), { name: 'MongooseServerSelectionError' });
    expect(toAppError(selection)?.code).toBe('database_unavailable');
    expect(toAppError(new mongoose.Error.CastError('ObjectId', 'x', 'id'))?.code).toBe('bad_request');
    expect(toAppError(Object.assign(new Error('dup'), { code: 11000 }))?.code).toBe('conflict');
    expect(toAppError(Object.assign(new Error('big'), { status: 413 }))?.code).toBe('payload_too_large');
    expect(toAppError(new Error('plain'))).toBeUndefined();
  });

  it('hides unknown errors behind a 500 with a request id and no stack', async () => {
    const res = await appThrowing(new Error('secret internals at /src/x.ts:1')).get('/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, code: 'internal_error', message: 'Internal error', requestId: expect.any(String) });
    expect(res.text).not.toContain('secret internals');
  });
});
