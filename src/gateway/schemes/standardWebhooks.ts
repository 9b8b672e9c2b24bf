// `standard-webhooks` (standardwebhooks.com, Svix's scheme): `webhook-signature` holds one or more
// space-separated `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<body>`, keyed
// with the base64 part of a `whsec_` secret. The id is signed, so it is the delivery id; the event
// is the body's `type` (the format's payload convention).
import { anyMatch, bodyEvent, checkTolerance, header, hmac, parseTimestamp, providerId, refuse } from './common.ts';
import type { Scheme } from './types.ts';
import { standardWebhooksKey } from '../../security/signature.ts';

export const standardWebhooksScheme: Scheme = {
  authenticate({ source, headers, rawBody, now }) {
    const id = header(headers, 'webhook-id');
    const timestamp = parseTimestamp(header(headers, 'webhook-timestamp'));
    const signature = header(headers, 'webhook-signature');
    if (id === undefined || timestamp === null || signature === undefined) refuse('webhook-id, webhook-timestamp and webhook-signature are required');
    const given = signature
      .split(' ')
      .filter((s) => s.startsWith('v1,'))
      .slice(0, 10)
      .map((s) => Buffer.from(s.slice(3), 'base64'));
    const keys = source.secrets.map(standardWebhooksKey);
    if (!anyMatch(given, keys, (key) => hmac('sha256', key, `${id}.${timestamp}.`, rawBody))) refuse('webhook-signature does not match');
    checkTolerance(timestamp, now, source.toleranceSeconds, 'webhook-timestamp');
    return { bodySigned: true, factsSigned: false, signedId: id };
  },
  identify(_req, payload, auth) {
    return { deliveryId: providerId(auth.signedId, 'webhook-id'), event: bodyEvent(payload), test: false, signed: { deliveryId: true, event: true, test: false } };
  },
};
