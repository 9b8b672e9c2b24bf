// Signing a delivery as each scheme's sender does, for `relay gateway send`: the mirror of each
// scheme's check beside this file. A sample event is a JSON object; where a scheme reads the
// delivery's id, event or test flag from the body (stripe, standard-webhooks), an option given on
// the command line is written into it, and otherwise the file's bytes go out unchanged.
import { randomUUID } from 'node:crypto';
import { signBody, signDeliveryFacts, signStandardWebhook } from '../../security/signature.ts';
import { hmac as mac, inferEventName } from './common.ts';
import type { HmacConfig } from './hmacConfig.ts';
import type { SchemeName } from './types.ts';

export interface SendInput {
  scheme: SchemeName;
  secret: string;
  /** The sample event: its exact bytes and what they parse to (an object). */
  raw: Buffer;
  payload: Record<string, unknown>;
  deliveryId?: string;
  event?: string;
  test: boolean;
  /** The `hmac` scheme's settings, the shape of GATEWAY_CONFIG's `sources.<name>.hmac`. */
  hmac?: HmacConfig;
  now: Date;
}

export interface SignedSend {
  body: Buffer;
  headers: Record<string, string>;
  /** The sender's id of this delivery as a header or the body carries it; null where none does (the gateway takes the body's digest). */
  deliveryId: string | null;
}

/** A refusal of the command line's options: the CLI prints it and exits 1. */
export class SendOptionError extends Error {}

const seconds = (now: Date) => Math.floor(now.getTime() / 1000);
const json = { 'Content-Type': 'application/json' };

/** The body with these fields set, re-serialised only when one changes it. */
function withFields(input: SendInput, fields: Record<string, unknown>): Buffer {
  const changed = Object.entries(fields).filter(([k, v]) => v !== undefined && input.payload[k] !== v);
  return changed.length ? Buffer.from(JSON.stringify({ ...input.payload, ...Object.fromEntries(changed) })) : input.raw;
}

function refuseTest(input: SendInput): void {
  if (input.test) throw new SendOptionError(`--test: the ${input.scheme} scheme carries no test flag`);
}

function relay(input: SendInput): SignedSend {
  const { payload, secret } = input;
  const deliveryId = input.deliveryId ?? (typeof payload.deliveryId === 'string' ? payload.deliveryId : randomUUID());
  const body = Buffer.from(JSON.stringify({ ...payload, deliveryId }));
  const event = input.event ?? inferEventName(payload);
  const headers: Record<string, string> = { ...json, 'X-Service-Signature': signBody(body, secret), 'X-Service-Delivery-Id': deliveryId, 'X-Service-Event': event };
  if (input.test) headers['X-Service-Test'] = 'true';
  headers['X-Relay-Signature'] = signDeliveryFacts({ deliveryId, event, test: input.test }, body, secret, input.now);
  return { body, headers, deliveryId };
}

/** GitHub signs the body alone, with SHA-256 (and SHA-1 for old receivers); event and id are plain headers. */
function github(input: SendInput): SignedSend {
  refuseTest(input);
  if (!input.event) throw new SendOptionError('--name is required with --scheme github: the X-GitHub-Event, e.g. issues or ping');
  const deliveryId = input.deliveryId ?? randomUUID();
  const digest = (algorithm: 'sha1' | 'sha256') => `${algorithm}=${mac(algorithm, input.secret, input.raw).toString('hex')}`;
  const headers = { ...json, 'X-GitHub-Event': input.event, 'X-GitHub-Delivery': deliveryId, 'X-Hub-Signature-256': digest('sha256'), 'X-Hub-Signature': digest('sha1') };
  return { body: input.raw, headers, deliveryId };
}

/** Stripe's event object holds its id, its type and `livemode`; Stripe-Signature signs `<t>.<body>`. */
function stripe(input: SendInput): SignedSend {
  const body = withFields(input, { id: input.deliveryId, type: input.event, livemode: input.test ? false : undefined });
  const id = JSON.parse(body.toString('utf8')).id;
  if (typeof id !== 'string') throw new SendOptionError('--delivery-id is required with --scheme stripe when the event has no "id" (evt_…)');
  const t = seconds(input.now);
  const v1 = mac('sha256', input.secret, `${t}.`, body).toString('hex');
  return { body, headers: { ...json, 'Stripe-Signature': `t=${t},v1=${v1}` }, deliveryId: id };
}

/** webhook-id, webhook-timestamp and webhook-signature; the event is the body's `type`. */
function standardWebhooks(input: SendInput): SignedSend {
  refuseTest(input);
  const body = withFields(input, { type: input.event });
  const deliveryId = input.deliveryId ?? `msg_${randomUUID().replaceAll('-', '')}`;
  return { body, headers: { ...json, ...signStandardWebhook(deliveryId, body, input.secret, input.now) }, deliveryId };
}

/** The generic form, as the source's `hmac` block says: its header, algorithm, encoding, prefix and time. */
function hmac(input: SendInput): SignedSend {
  refuseTest(input);
  const o = input.hmac;
  if (!o) throw new SendOptionError('--hmac is required with --scheme hmac: the source\'s "hmac" block of GATEWAY_CONFIG, e.g. \'{"header":"X-Signature"}\'');
  const headers: Record<string, string> = { ...json };
  const signed: Array<string | Buffer> = [input.raw];
  if (o.timestampHeader) {
    const t = String(seconds(input.now));
    headers[o.timestampHeader] = t;
    signed.unshift(`${t}${o.timestampSeparator}`);
  }
  headers[o.header] = o.prefix + mac(o.algorithm, input.secret, ...signed).toString(o.encoding);
  // An id or event header only where the source reads one; elsewhere they come from the body.
  if (!o.idHeader && input.deliveryId) throw new SendOptionError('--delivery-id: this source has no idHeader; its id is the body\'s (idPath) or the body\'s digest');
  if (!o.eventHeader && input.event) throw new SendOptionError('--name: this source has no eventHeader; its event is the body\'s (eventPath, type or event)');
  let deliveryId: string | null = null;
  if (o.idHeader) headers[o.idHeader] = deliveryId = input.deliveryId ?? randomUUID();
  if (o.eventHeader) {
    if (!input.event) throw new SendOptionError(`--name is required: this source reads the event from ${o.eventHeader}`);
    headers[o.eventHeader] = input.event;
  }
  return { body: input.raw, headers, deliveryId };
}

const signers: Record<SchemeName, (input: SendInput) => SignedSend> = { relay, github, stripe, 'standard-webhooks': standardWebhooks, hmac };

/** The body and headers a sender of `input.scheme` would POST. */
export function signSend(input: SendInput): SignedSend {
  return signers[input.scheme](input);
}
