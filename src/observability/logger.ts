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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
