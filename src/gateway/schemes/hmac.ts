// `hmac`: the generic form for senders without a scheme of their own. One header holds an
// optional prefix and the HMAC (sha1, sha256 or sha512; hex or base64) of the body or, with a
// timestamp header, of `<timestamp><separator><body>` (the time must be signed, or its tolerance
// would bound nothing). The delivery id comes from a JSONata path into the body (signed), else the
// body's digest: an `idHeader` is unsigned, so it is checked and kept with the headers but does not
// identify the delivery (a captured body under a fresh id is a duplicate, issue 35). The event comes
// from a path or a header, else the body's `type`/`event`.
import { AppError } from '../../http/errors.ts';
import { anyMatch, bodyEvent, checkTolerance, digestId, eventName, header, hmac, parseTimestamp, providerId, refuse, type HmacAlgorithm } from './common.ts';
import type { CompiledExpression } from '../rules/expression.ts';
import type { HmacOptions, Scheme, SchemeRequest } from './types.ts';

const DIGEST_BYTES: Record<HmacAlgorithm, number> = { sha1: 20, sha256: 32, sha512: 64 };

function decode(value: string, o: HmacOptions): Buffer | null {
  const ok = o.encoding === 'hex' ? /^[0-9a-fA-F]+$/.test(value) : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value);
  const bytes = ok ? Buffer.from(value, o.encoding === 'hex' ? 'hex' : 'base64') : null;
  return bytes && bytes.length === DIGEST_BYTES[o.algorithm] ? bytes : null;
}

async function fromPath(path: CompiledExpression, payload: Record<string, unknown>, what: string): Promise<string> {
  let value: unknown;
  try {
    value = await path.evaluate(payload);
  } catch (err) {
    throw new AppError('validation_failed', `${what}: ${(err as Error).message}`);
  }
  return typeof value === 'number' ? String(value) : (value as string);
}

const optionsOf = (req: SchemeRequest): HmacOptions => req.source.hmac!;

export const hmacScheme: Scheme = {
  authenticate(req) {
    const o = optionsOf(req);
    const { source, headers, rawBody, now } = req;
    const value = header(headers, o.header);
    if (value === undefined || !value.startsWith(o.prefix)) refuse(`${o.header} is missing or lacks its prefix`);
    const given = decode(value.slice(o.prefix.length), o);
    if (!given) refuse(`${o.header} is not a ${o.encoding} ${o.algorithm} digest`);
    let timestamp: number | null = null;
    if (o.timestampHeader) {
      timestamp = parseTimestamp(header(headers, o.timestampHeader));
      if (timestamp === null) refuse(`${o.timestampHeader} is missing or not unix seconds`);
    }
    const parts = timestamp === null ? [rawBody] : [`${timestamp}${o.timestampSeparator}`, rawBody];
    if (!anyMatch([given], source.secrets, (key) => hmac(o.algorithm, key, ...parts))) refuse(`${o.header} does not match the body`);
    if (timestamp !== null) checkTolerance(timestamp, now, source.toleranceSeconds, o.timestampHeader!);
    return { bodySigned: true, factsSigned: false };
  },
  async identify(req, payload) {
    const o = optionsOf(req);
    let deliveryId = digestId(req.rawBody);
    if (o.idPath) deliveryId = providerId(await fromPath(o.idPath, payload, 'idPath'), 'the id at idPath');
    else if (o.idHeader) providerId(header(req.headers, o.idHeader), o.idHeader);
    let event: string;
    let eventSigned = true;
    if (o.eventPath) event = eventName((await fromPath(o.eventPath, payload, 'eventPath')) ?? '', 'the event at eventPath');
    else if (o.eventHeader) [event, eventSigned] = [eventName(header(req.headers, o.eventHeader) ?? '', o.eventHeader), false];
    else event = bodyEvent(payload);
    return { deliveryId, event, test: false, signed: { deliveryId: true, event: eventSigned, test: false } };
  },
};
