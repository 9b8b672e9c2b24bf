// Idempotent retries (docs/API_NOTES.md, "Idempotent retries"), as Stripe does them: a request sent
// with an `Idempotency-Key` header runs once per channel and key; a retry within 24 h gets the first
// answer and creates nothing. The claim is a database row, so it holds across instances.
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';
import { trusted } from '../db/connection.ts';
import type { Clock } from '../clock.ts';
import { isDuplicateKey } from '../db/insertNew.ts';
import { AppError } from './errors.ts';
import { IdempotencyKeyModel } from './idempotencyModel.ts';

/** How long a key answers with its first answer. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How long a running request holds its key without renewing it. The instance renews it every third
 * of this while the request runs, so a key whose instance died is free again within this long.
 */
export const LEASE_MS = 30_000;
/** A request still running after this long stops renewing (a stream nobody reads, say). */
const MAX_RUN_MS = 15 * 60_000;

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentRequest {
  /** The first answer, when this request is a retry; null when this request runs. */
  replay: unknown;
  /** Keeps `answer` as the key's answer (once). */
  complete(answer: unknown): Promise<void>;
  /** Frees the key without an answer, so a retry runs again (a refused or failed request). */
  release(): Promise<void>;
  /** The route settles the key itself (a turn that ends after the handler returns). */
  handOff(): void;
}

/** JSON with sorted keys, so the same body in another key order has the same fingerprint. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface StoredKey {
  _id: string;
  fingerprint: string;
  state: 'running' | 'done';
  leaseUntil: Date;
  answer: string | null;
  createdAt: Date;
}

/** Claims the key for this request, or finds the answer or the run that already holds it. */
async function claim(clock: Clock, id: string, fingerprint: string): Promise<{ replay: unknown } | { run: true }> {
  for (let tries = 0; tries < 3; tries++) {
    const now = clock.now();
    const fresh: StoredKey = { _id: id, fingerprint, state: 'running', leaseUntil: new Date(now.getTime() + LEASE_MS), answer: null, createdAt: now };
    try {
      await IdempotencyKeyModel.collection.insertOne(fresh as never);
      return { run: true };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const found = (await IdempotencyKeyModel.findById(id).lean()) as StoredKey | null;
    if (!found) continue; // released meanwhile: claim again
    const expired = found.createdAt.getTime() + KEY_LIFETIME_MS <= now.getTime();
    const abandoned = found.state === 'running' && found.leaseUntil.getTime() <= now.getTime();
    if (expired || abandoned) {
      // Take it over only if nobody else did since we read it.
      const taken = await IdempotencyKeyModel.updateOne({ _id: id, state: found.state, leaseUntil: found.leaseUntil }, { $set: fresh });
      if (taken.modifiedCount === 1) return { run: true };
      continue;
    }
    if (found.fingerprint !== fingerprint) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with another request; use a new key for a new request');
    }
    if (found.state === 'running') {
      throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry when it has finished');
    }
    return { replay: JSON.parse(found.answer ?? 'null') };
  }
  throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is changing hands; retry shortly');
}

function runningRequest(clock: Clock, id: string): IdempotentRequest & { handedOff: boolean } {
  let settled = false;
  const started = Date.now();
  const renew = setInterval(() => {
    if (Date.now() - started > MAX_RUN_MS) return clearInterval(renew);
    void IdempotencyKeyModel.updateOne({ _id: id, state: 'running' }, { $set: { leaseUntil: new Date(clock.now().getTime() + LEASE_MS) } }).catch(() => undefined);
  }, LEASE_MS / 3);
  renew.unref();
  const settle = () => {
    if (settled) return false;
    settled = true;
    clearInterval(renew);
    return true;
  };
  return {
    replay: null,
    handedOff: false,
    async complete(answer) {
      if (!settle()) return;
      await IdempotencyKeyModel.updateOne({ _id: id }, { $set: { state: 'done', answer: JSON.stringify(answer) } });
    },
    async release() {
      if (!settle()) return;
      await IdempotencyKeyModel.deleteOne({ _id: id, state: 'running' });
    },
    handOff() {
      this.handedOff = true;
    },
  };
}

/**
 * Middleware for a public POST route, after `validate`: without the header it does nothing. With
 * it, a first request runs and its 2xx JSON answer is kept (anything else frees the key for a
 * retry); a retry of a JSON answer is answered here, any other kept answer is left to the route in
 * `ctx.state.idempotency.replay`. Replies carry `Idempotent-Replayed: true`.
 */
export function idempotent(route: string, clock: Clock) {
  return async function idempotency(c: Context, next: Next) {
    const key = c.get('idempotency-key');
    if (!key) return next();
    if (!KEY_FORMAT.test(key)) throw new AppError('validation_failed', 'Idempotency-Key must be 1-255 printable ASCII characters');
    const channelId: string = c.state.channel.id;
    const fingerprint = sha256(`${route} ${c.state.apiVersion} ${stableJson(c.state.input ?? {})}`);
    const claimed = await claim(clock, `${channelId}:${sha256(key)}`, fingerprint);
    if ('replay' in claimed) {
      c.set('Idempotent-Replayed', 'true');
      const kept = claimed.replay as { json?: unknown };
      if (kept && typeof kept === 'object' && 'json' in kept) {
        c.body = kept.json;
        return;
      }
      c.state.idempotency = { replay: claimed.replay, complete: async () => undefined, release: async () => undefined, handOff: () => undefined } satisfies IdempotentRequest;
      return next();
    }
    const request = runningRequest(clock, `${channelId}:${sha256(key)}`);
    c.state.idempotency = request;
    try {
      await next();
    } catch (err) {
      await request.release();
      throw err;
    }
    if (request.handedOff) return;
    const body = c.body as unknown;
    if (c.status >= 200 && c.status < 300 && body && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function') {
      await request.complete({ json: body });
    } else {
      await request.release();
    }
  };
}

/** Deletes keys older than `before` (all long expired: RETENTION_DAYS is at least a day). */
export async function pruneIdempotencyKeys(before: Date): Promise<Record<string, number>> {
  const { deletedCount } = await IdempotencyKeyModel.deleteMany({ createdAt: trusted({ $lt: before }) });
  return { idempotencykeys: deletedCount };
}
