// The closed set of error codes and the one mapping from anything thrown to the spec's error body.
import { describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { MongoBulkWriteError, MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoTopologyClosedError } from 'mongodb';
import { isTransientDatabaseError } from '../../src/db/errors.ts';
import Koa from 'koa';
import request from 'supertest';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../src/http/errors.ts';
import { errorMiddleware, toAppError } from '../../src/http/errorMiddleware.ts';
import { createLogger } from '../../src/observability/logger.ts';

function labelled(err: MongoServerError, label: string): MongoServerError {
  err.addErrorLabel(label);
  return err;
}

function bulkWrapping(err: Error): Error {
  const Wrapper = MongoBulkWriteError as unknown as new (error: Error, result: object) => Error;
  return new Wrapper(err, {});
}

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

  it('answers 503 with Retry-After for a database that is away or overloaded, and 500 for other server errors', async () => {
    // As FerretDB on SQLite answers a write that waited past its busy timeout (docs/FERRETDB.md).
    const busy = new MongoServerError({ message: 'database is locked (5) (SQLITE_BUSY)', code: 1, codeName: 'InternalError' });
    // As FerretDB answers a command it was running when it shut down.
    const shutdown = new MongoServerError({ message: '[msg_insert.go:168 handler.(*Handler).MsgInsert] [db.go:134 fsql.(*DB).InTransaction] context canceled', code: 1, codeName: 'InternalError' });
    const transient = [
      busy,
      shutdown,
      new MongoNetworkTimeoutError('connection timed out'),
      new MongoServerError({ message: 'not primary', code: 10107 }),
      new MongoServerError({ message: 'stepped down', code: 189 }),
      labelled(new MongoServerError({ message: 'write conflict', code: 112 }), 'RetryableWriteError'),
      new Error('wrapped', { cause: busy }),
      // As insertMany fails when the topology is closed or a connection is lost mid-command: the
      // driver wraps its error in a MongoBulkWriteError (its constructor is internal, hence the cast).
      bulkWrapping(new MongoTopologyClosedError()),
      bulkWrapping(new MongoNetworkError('connection 2 to 127.0.0.1:1 closed')),
      // The raw Node error of a write to a socket the server had closed, as the driver passes it on
      // when it came while waiting for 'drain' (seen in the outage test, wrapped by insertMany).
      bulkWrapping(Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' })),
      // … and unwrapped, from any other operation: its stack passed through the driver's connection.
      Object.assign(new Error('This socket has been ended by the other party'), {
        code: 'EPIPE',
        stack: 'Error: This socket has been ended by the other party\n    at Connection.writeCommand (/app/node_modules/mongodb/lib/cmap/connection.js:408:29)',
      }),
    ];
    for (const err of transient) {
      expect(isTransientDatabaseError(err), String(err)).toBe(true);
      const res = await appThrowing(err).get('/');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ success: false, code: 'database_unavailable' });
    }
    const internal = new MongoServerError({ message: 'unexpected document shape', code: 1 });
    expect(isTransientDatabaseError(internal)).toBe(false);
    expect((await appThrowing(internal).get('/')).status).toBe(500);
    expect(isTransientDatabaseError(new Error('database is locked'))).toBe(false);
    // The same socket error from anywhere but the driver (a model or webhook call) is not the database's.
    const elsewhere = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    elsewhere.stack = 'Error: connect ECONNREFUSED\n    at TCPConnectWrap.afterConnect (node:net:1607:16)';
    expect(isTransientDatabaseError(elsewhere)).toBe(false);
    expect(isTransientDatabaseError(new Error('model call failed', { cause: elsewhere }))).toBe(false);
  });

  it('hides unknown errors behind a 500 with a request id and no stack', async () => {
    const res = await appThrowing(new Error('secret internals at /src/x.ts:1')).get('/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, code: 'internal_error', message: 'Internal error', requestId: expect.any(String) });
    expect(res.text).not.toContain('secret internals');
  });
});
