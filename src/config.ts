// Every environment variable the service reads, parsed and validated once.
// Nothing else in src/ reads process.env.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { resolvePlanLimits } from './plans.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),

  MONGODB_URI: z.string().url().optional(),
  /** Port of the embedded FerretDB started when MONGODB_URI is unset. */
  EMBEDDED_DB_PORT: z.coerce.number().int().min(1).max(65535).default(27027),

  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  /** Public base URLs used when the service prints its own addresses. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Where the `relay` CLI finds the running server (default http://127.0.0.1:PORT). */
  RELAY_URL: z.string().url().optional(),
  HOOKS_BASE_URL: z.string().url().optional(),

  BODY_LIMIT: z.string().default('1mb'),
  JSON_MAX_DEPTH: z.coerce.number().int().min(2).max(1000).default(64),
  /**
   * Response deadline: a request still waiting for its handlers after this long answers 503
   * `request_timeout` (a driver operation can hang for good: docs/FERRETDB.md). Streams are bound
   * only until their head is out. 120 s is well above the longest legitimate waits we know of: a
   * whole chat reply is up to three model calls with no timeout of their own, a 1,000-row write
   * about 16 s on FerretDB (250 rows take 4 s), a webhook test send OUTBOUND_TIMEOUT_MS (10 s)
   * plus its reads. Keep it above OUTBOUND_TIMEOUT_MS (docs/API_NOTES.md).
   */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  /**
   * How long a client may take to send a request's headers, and the whole request with its body
   * (Node's headersTimeout and requestTimeout; their defaults held a trickled body for 300 s).
   * A request not received in time is answered 408 and its connection closed (docs/API_NOTES.md).
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  HTTP_RECEIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),

  /**
   * Days to keep the records of finished work: events, webhook deliveries with their attempts, and
   * processed gateway deliveries with their outcomes (retention.ts). 0 keeps them for ever.
   * Gateway de-duplication by delivery id holds for this long.
   */
  RETENTION_DAYS: z.coerce.number().int().min(0).default(30),
  /**
   * The admin delivery lists (a hook's log, the gateway's) count their total up to this many and
   * then say `totalCapped: true`: an exact count reads the whole list, 300,000 entries on a busy
   * install, on every page (docs/WEBHOOKS.md, "Delivery log").
   */
  DELIVERY_LIST_TOTAL_LIMIT: z.coerce.number().int().min(1).default(10_000),

  /**
   * Agenda: how often a worker polls, and how long a job lock lives. The lock also sets how soon
   * the sweeps hand over what a killed process held (jobs/scheduler.ts, SWEEP_INTERVAL).
   */
  JOB_PROCESS_EVERY_MS: z.coerce.number().int().min(10).default(1000),
  JOB_LOCK_LIFETIME_MS: z.coerce.number().int().min(1000).default(30_000),
  JOB_MAX_CONCURRENCY: z.coerce.number().int().min(1).default(50),

  /** Plan limits override, JSON: {"standard":{"dataSourcesPerBot":5,...}}. */
  PLAN_LIMITS_JSON: z.string().optional(),

  /** Outgoing requests (webhooks, gateway http action). */
  OUTBOUND_ALLOW_PRIVATE: bool.default(false),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  OUTBOUND_RESPONSE_LIMIT_BYTES: z.coerce.number().int().min(0).default(4096),

  /** Outgoing webhooks: attempts of one hook in flight at once across every process, unless the hook sets its own. */
  WEBHOOK_HOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(10),
  /** Disable a hook whose attempts failed without a success for this long (hours; 0 never). Svix's 5 days. */
  WEBHOOK_DISABLE_AFTER_FAILING_HOURS: z.coerce.number().min(0).default(120),

  /** Optional OpenAI-compatible model for the chat answerer. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().optional(),
  /** Optional embedding model on the same server: hybrid retrieval (BM25 + vectors), docs/CHAT.md. */
  EMBEDDING_MODEL: z.string().optional(),
  /** Chunks per /embeddings request during a sync, at first: they double up to 4x while the provider answers fast (knowledge/embeddings.ts). */
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  /** Bound on one /embeddings request; a chat whose query embedding takes longer answers from BM25. */
  EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * Cosine similarity a chunk needs to count as a vector hit (vectors are normalised). Without a
   * floor every question has neighbours and the bot never says "I don't know". 0.3 sits between
   * unrelated (~0.1) and relevant (~0.4+) question-passage pairs of text-embedding-3-*; models with
   * a higher baseline (ada-002, some nomic/bge) need more. -1 turns the floor off.
   */
  EMBEDDING_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.3),

  /**
   * How often each instance writes its heartbeat and follows what the others changed (a gateway
   * reload, an edit of GATEWAY_CONFIG): docs/DEPLOY.md, "Scaling".
   */
  FLEET_POLL_MS: z.coerce.number().int().min(10).default(2_000),

  /** Gateway: source configuration file and rules folder. */
  GATEWAY_CONFIG: z.string().optional(),
  RULES_DIR: z.string().default('./rules'),

  /** Email: SMTP URL (smtp://user:pass@host:port); unset writes .eml files to DATA_DIR/outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Relay <relay@localhost>'),
});

export type Env = z.infer<typeof EnvSchema>;
/** `gatewaySecretEnv`: every GATEWAY_SECRET_* variable, for `env:NAME` references in GATEWAY_CONFIG. */
export type Config = Env & { dataDir: string; lockLifetimeFloorMs: number; gatewaySecretEnv: Record<string, string> };

/** Delivery attempts time out at 10 s (spec "Delivery behaviour"); locks must outlive them comfortably. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * Jobs longer than one step (gateway process and action jobs, syncs) extend their lock every 5 s
 * between steps, so no lock may be shorter than a step plus that with room to spare.
 */
const LOCK_LIFETIME_MIN_MS = 15_000;

/**
 * The shortest job lock: three times the outbound timeout, so a job whose attempt can still be
 * running is never picked up twice; 30 s with the spec's 10 s. A shorter OUTBOUND_TIMEOUT_MS lowers
 * it (to 15 s at least), and with it how soon a killed process's work is sent again
 * (docs/DEPLOY.md, "Recovery after a crash"); a longer one keeps 30 s.
 */
export function lockLifetimeFloorMs(outboundTimeoutMs: number): number {
  return Math.max(LOCK_LIFETIME_MIN_MS, 3 * Math.min(outboundTimeoutMs, DELIVERY_TIMEOUT_MS));
}

export class ConfigError extends Error {}

/**
 * Reads `.env` from the working directory, as .env.example invites, with Node's own loader. A
 * variable already in the environment wins over the file. Called once by each entry point.
 */
export function loadDotEnv(file = '.env'): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const floorMs = lockLifetimeFloorMs(config.OUTBOUND_TIMEOUT_MS);
  if (config.JOB_LOCK_LIFETIME_MS < floorMs) {
    throw new ConfigError(
      `Invalid configuration:\n  JOB_LOCK_LIFETIME_MS: must be at least ${floorMs} ms ` +
        `(three times the ${Math.min(config.OUTBOUND_TIMEOUT_MS, DELIVERY_TIMEOUT_MS)} ms delivery timeout, OUTBOUND_TIMEOUT_MS) so a running job is never picked up twice`,
    );
  }
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_RECEIVE_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_RECEIVE_TIMEOUT_MS (the headers are part of the request)');
  }
  if (config.PLAN_LIMITS_JSON) {
    try {
      resolvePlanLimits(config.PLAN_LIMITS_JSON);
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  PLAN_LIMITS_JSON: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (config.OPENAI_BASE_URL && !config.OPENAI_MODEL && !config.EMBEDDING_MODEL) {
    throw new ConfigError('Invalid configuration:\n  OPENAI_MODEL: required when OPENAI_BASE_URL is set');
  }
  if (config.EMBEDDING_MODEL && !config.OPENAI_BASE_URL) {
    throw new ConfigError('Invalid configuration:\n  OPENAI_BASE_URL: required when EMBEDDING_MODEL is set');
  }
  const gatewaySecretEnv = Object.fromEntries(Object.entries(cleaned).filter(([k]) => k.startsWith('GATEWAY_SECRET_'))) as Record<string, string>;
  return { ...config, dataDir: path.resolve(config.DATA_DIR), lockLifetimeFloorMs: floorMs, gatewaySecretEnv };
}
