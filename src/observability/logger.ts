// Structured logs (pino). Secrets are redacted by path; nothing logs request bodies.
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers["x-api-secret-key"]',
  'req.headers["x-secret-key"]',
  'req.headers["x-service-signature"]',
  'req.headers.authorization',
  'headers["x-api-secret-key"]',
  'headers["x-secret-key"]',
  'headers.authorization',
  '*.secret',
  '*.secretKey',
  '*.apiKey',
  'secret',
  'secretKey',
];

// Paths that carry a secret in the URL itself: the sync-trigger hook /api/public/hooks/:hookId/:secret
// (spec "Incoming webhook endpoint"). Everything after the hook id is replaced. Case-insensitive
// because the router matches paths case-insensitively.
const SECRET_PATHS: Array<[RegExp, string]> = [[/^(\/+api\/+public\/+hooks\/+[^/]*)\/.*$/i, '$1/[redacted]']];

/** A request path that is safe to log: secret segments are replaced with `[redacted]`. */
export function loggablePath(path: string): string {
  for (const [pattern, replacement] of SECRET_PATHS) if (pattern.test(path)) return path.replace(pattern, replacement);
  return path;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
