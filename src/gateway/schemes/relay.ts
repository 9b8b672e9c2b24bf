// `relay`, the default: the spec's X-Service-Signature (`sha256=` hex HMAC of the raw bytes), the
// legacy X-Secret-Key where a source opts in, and Relay's X-Relay-Signature over the id, event and
// test headers (issue 21, F4). The id and event come from signed bytes only: the signed header,
// else the body's `deliveryId`/`event`, else the body's digest and shape. A source that has sent
// X-Relay-Signature must keep sending it (issue 35, G1): see requireTimedOnceSeen.
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { secretsEqual } from '../../security/secrets.ts';
import { verifyDeliveryFacts, verifySignature, type DeliveryFacts } from '../../security/signature.ts';
import { insertedOnce } from '../../db/insertNew.ts';
import { TimedSourceModel } from '../model.ts';
import { digestId, eventName, header, inferEventName, refuse } from './common.ts';
import type { Authentication, Scheme, SchemeRequest } from './types.ts';

const DeliveryIdSchema = z.string().uuid();

/** X-Relay-Signature, when sent, must verify and be recent: a wrong one is refused, not ignored. */
function verifyFacts({ source, headers, rawBody, now }: SchemeRequest): boolean {
  const signature = header(headers, 'x-relay-signature');
  if (signature === undefined) return false;
  const facts: DeliveryFacts = {
    deliveryId: header(headers, 'x-service-delivery-id') ?? '',
    event: header(headers, 'x-service-event') ?? '',
    test: header(headers, 'x-service-test') === 'true',
  };
  const verdict = verifyDeliveryFacts(signature, facts, rawBody, source.secrets, now, source.toleranceSeconds);
  if (verdict === 'invalid') refuse('X-Relay-Signature does not match the delivery');
  if (verdict === 'expired') throw new AppError('signature_expired', `X-Relay-Signature is more than ${source.toleranceSeconds} s from the current time`);
  return true;
}

function authenticate(req: SchemeRequest): Authentication {
  const { source, headers, rawBody } = req;
  const signature = header(headers, 'x-service-signature');
  if (signature !== undefined) {
    if (!verifySignature(rawBody, signature, source.secrets)) refuse('X-Service-Signature does not match the body');
    return { bodySigned: true, factsSigned: verifyFacts(req) };
  }
  const legacy = header(headers, 'x-secret-key');
  if (source.allowLegacySecretHeader && legacy !== undefined) {
    // Every secret is compared, so the time taken does not reveal which one (if any) matched.
    let ok = false;
    for (const secret of source.secrets) ok = secretsEqual(legacy, secret) || ok;
    if (ok) return { bodySigned: false, factsSigned: false };
    refuse('X-Secret-Key does not match');
  }
  refuse('X-Service-Signature is missing');
}

/**
 * The id de-duplication keys on: the signed header, else the body's `deliveryId` (spec "Events":
 * equal to the header, so both must agree when both are sent), else a digest of the body. An
 * unsigned header id alone would let one captured body in again under a fresh id.
 */
function deliveryIdOf(req: SchemeRequest, payload: Record<string, unknown>, factsSigned: boolean): string {
  const fromHeader = header(req.headers, 'x-service-delivery-id');
  const fromBody = payload.deliveryId;
  if (fromHeader !== undefined && !DeliveryIdSchema.safeParse(fromHeader).success) throw new AppError('validation_failed', 'X-Service-Delivery-Id must be a UUID');
  if (fromBody !== undefined && !DeliveryIdSchema.safeParse(fromBody).success) throw new AppError('validation_failed', 'deliveryId must be a UUID string');
  if (fromHeader !== undefined && fromBody !== undefined && String(fromBody).toLowerCase() !== fromHeader.toLowerCase()) {
    throw new AppError('validation_failed', 'X-Service-Delivery-Id and body deliveryId differ');
  }
  if (factsSigned && fromHeader !== undefined) return fromHeader.toLowerCase();
  if (fromBody !== undefined) return String(fromBody).toLowerCase();
  return digestId(req.rawBody);
}

/** The signed header, else the body's `event`, else the sync shape; an unsigned X-Service-Event does not route. */
function eventOf(req: SchemeRequest, payload: Record<string, unknown>, factsSigned: boolean): string {
  const fromHeader = factsSigned ? header(req.headers, 'x-service-event') : undefined;
  const named = fromHeader ?? (typeof payload.event === 'string' ? payload.event : undefined);
  return named !== undefined ? eventName(named) : inferEventName(payload);
}

/** Sources known (in this process) to have sent X-Relay-Signature; the record decides in the others. */
const timedSources = new Set<string>();
/**
 * When the record last said a source had not sent it. That answer is trusted for a second, so a
 * source that never sends the header costs one read a second, not one per delivery (about 15 % of
 * an accepted delivery's CPU, `npm run bench -- gateway`). The instance that sees the first timed
 * delivery refuses untimed ones at once; the others, within that second.
 */
const untimedCheckedAt = new Map<string, number>();
export const TIMED_RECHECK_MS = 1000;

/**
 * Downgrade protection, as HSTS does for TLS. A timed delivery is de-duplicated by its signed id;
 * the same body without X-Relay-Signature would be a new delivery (id: the body digest when the
 * body has no `deliveryId`, as with custom payloads) and run its rules again, after the 300 s
 * window too. Relay always sends the header, so once a source has sent it, a delivery without it
 * is a replay or a forgery and is refused. Chosen over a body-digest key beside the signed id:
 * that holds only while the delivery is kept (RETENTION_DAYS), and two real deliveries may carry
 * the same bytes (a custom payload without ids), which the digest would wrongly merge.
 */
export async function requireTimedOnceSeen(req: Pick<SchemeRequest, 'source' | 'now'>, factsSigned: boolean): Promise<void> {
  const name = req.source.name;
  if (factsSigned) {
    if (!timedSources.has(name)) await insertedOnce(TimedSourceModel.collection.insertOne({ _id: name, since: req.now } as never));
    timedSources.add(name);
    return;
  }
  if (!timedSources.has(name)) {
    const now = req.now.getTime();
    const checkedAt = untimedCheckedAt.get(name);
    if (checkedAt !== undefined && now >= checkedAt && now - checkedAt < TIMED_RECHECK_MS) return;
    if (!(await TimedSourceModel.exists({ _id: name }))) {
      untimedCheckedAt.set(name, now);
      return;
    }
    timedSources.add(name);
  }
  refuse('X-Relay-Signature is missing: this source has sent it before, so every delivery must carry it');
}

export const relayScheme: Scheme = {
  authenticate,
  identify(req, payload, auth) {
    return {
      deliveryId: deliveryIdOf(req, payload, auth.factsSigned),
      event: eventOf(req, payload, auth.factsSigned),
      test: header(req.headers, 'x-service-test') === 'true',
      signed: { deliveryId: auth.bodySigned, event: auth.bodySigned, test: auth.factsSigned },
    };
  },
};
