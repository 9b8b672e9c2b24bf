// Which database errors mean "away or overloaded, retry shortly" rather than "this request is
// wrong" or "our bug". The edge answers these with 503 database_unavailable instead of a 500.
import { MongoError, MongoNetworkError, MongoNotConnectedError, MongoOperationTimeoutError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';

/** Server codes of a primary stepping down, a shutdown or a timeout on MongoDB (all retryable). */
const TRANSIENT_SERVER_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * FerretDB on SQLite gives up on a write that waited longer than its 10 s busy timeout for the
 * database lock, as InternalError (code 1) "database is locked (5) (SQLITE_BUSY)" (docs/FERRETDB.md).
 * A command running when FerretDB shuts down (SIGTERM) fails as InternalError "… context canceled".
 */
const FERRETDB_TRANSIENT = /\bSQLITE_BUSY\b|database is locked|context canceled/;

/**
 * What an error wraps: its `cause`, or the driver error a bulk write wraps as its `errorResponse`
 * (`insertMany` turns a closed topology or a lost connection into a MongoBulkWriteError, losing the
 * class).
 */
function wrapped(e: Error): unknown {
  const response = (e as { errorResponse?: unknown }).errorResponse;
  return e.cause ?? (response instanceof Error ? response : undefined);
}

/**
 * A socket error of the driver's own connection. The driver wraps a write that throws, but an
 * error emitted while it waits for `drain` (EPIPE on a socket the server has just closed) reaches
 * the caller as the raw Node error, or inside a MongoBulkWriteError (found by the outage test).
 * Only counted when it comes from the driver: a Mongo error wraps it or its stack passed through
 * the driver's connection, so a lost model or webhook connection is never taken for the database.
 */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const fromDriverSocket = (e: Error, insideMongoError: boolean): boolean =>
  SOCKET_CODES.has(String((e as { code?: unknown }).code)) && (insideMongoError || /node_modules\/mongodb\//.test(e.stack ?? ''));

export function isTransientDatabaseError(err: unknown): boolean {
  let insideMongoError = false;
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = wrapped(e), depth++) {
    if (fromDriverSocket(e, insideMongoError)) return true;
    insideMongoError ||= e instanceof MongoError;
    if (
      e instanceof MongoNetworkError || // includes timeouts and a cleared pool
      e instanceof MongoServerSelectionError ||
      e instanceof MongoNotConnectedError ||
      e instanceof MongoTopologyClosedError ||
      e instanceof MongoOperationTimeoutError
    ) {
      return true;
    }
    if (e instanceof MongoServerError && (TRANSIENT_SERVER_CODES.has(Number(e.code)) || e.hasErrorLabel('RetryableWriteError') || (e.code === 1 && FERRETDB_TRANSIENT.test(e.message)))) {
      return true;
    }
    // Mongoose wraps selection errors in its own classes and has no driver class for buffering.
    if (e.name === 'MongooseServerSelectionError' || (e.name === 'MongooseError' && /buffering timed out/.test(e.message))) return true;
  }
  return false;
}
