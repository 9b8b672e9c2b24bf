// `stripe`: Stripe-Signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (several
// v1 while Stripe rolls a secret; v0 and other schemes are ignored). The event object in the body
// gives the delivery id (`id`), the event (`type`) and the test flag (`livemode: false`), all signed.
import { anyMatch, checkTolerance, eventName, hmac, header, parseTimestamp, providerId, refuse } from './common.ts';
import type { Scheme } from './types.ts';

export const stripeScheme: Scheme = {
  authenticate({ source, headers, rawBody, now }) {
    let timestamp: number | null = null;
    const given: Buffer[] = [];
    for (const part of (header(headers, 'stripe-signature') ?? '').split(',')) {
      const eq = part.indexOf('=');
      const [key, value] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
      if (key === 't') timestamp = parseTimestamp(value);
      else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value) && given.length < 10) given.push(Buffer.from(value, 'hex'));
    }
    if (timestamp === null || given.length === 0) refuse('Stripe-Signature is missing or has no t= and v1=');
    if (!anyMatch(given, source.secrets, (key) => hmac('sha256', key, `${timestamp}.`, rawBody))) refuse('Stripe-Signature does not match the body');
    checkTolerance(timestamp, now, source.toleranceSeconds, 'Stripe-Signature t=');
    return { bodySigned: true, factsSigned: false };
  },
  identify(_req, payload) {
    return {
      deliveryId: providerId(payload.id, 'body id'),
      event: eventName(typeof payload.type === 'string' ? payload.type : '', 'body type'),
      test: payload.livemode === false,
      signed: { deliveryId: true, event: true, test: true },
    };
  },
};
