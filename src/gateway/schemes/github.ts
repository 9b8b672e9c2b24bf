// `github`: X-Hub-Signature-256 is `sha256=` + hex HMAC-SHA256 of the body. GitHub signs the body
// only and sends no time, so X-GitHub-Delivery (the delivery id) and X-GitHub-Event are unsigned:
// `signed.deliveryId` and `signed.event` are false, and a captured body could come again under a
// fresh delivery id (docs/SECURITY.md). This is the provider's format; rules can read `signed`.
import { anyMatch, eventName, header, hmac, providerId, refuse } from './common.ts';
import type { Scheme } from './types.ts';

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

export const githubScheme: Scheme = {
  authenticate({ source, headers, rawBody }) {
    const match = SIGNATURE.exec(header(headers, 'x-hub-signature-256') ?? '');
    if (!match) refuse('X-Hub-Signature-256 is missing or malformed');
    const given = [Buffer.from(match[1]!, 'hex')];
    if (!anyMatch(given, source.secrets, (key) => hmac('sha256', key, rawBody))) refuse('X-Hub-Signature-256 does not match the body');
    return { bodySigned: true, factsSigned: false };
  },
  identify({ headers }) {
    return {
      deliveryId: providerId(header(headers, 'x-github-delivery'), 'X-GitHub-Delivery'),
      event: eventName(header(headers, 'x-github-event') ?? '', 'X-GitHub-Event'),
      test: false,
      signed: { deliveryId: false, event: false, test: false },
    };
  },
};
