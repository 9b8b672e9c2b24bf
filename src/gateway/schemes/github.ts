// `github`: X-Hub-Signature-256 is `sha256=` + hex HMAC-SHA256 of the body. GitHub signs the body
// only and sends no time, so X-GitHub-Delivery and X-GitHub-Event are unsigned. The delivery is
// therefore identified by its body's digest (issue 35): a captured body sent again under a fresh
// X-GitHub-Delivery is a duplicate, as is GitHub's own redelivery (same id, same bytes). The
// sender's id stays readable in the stored headers; `signed.event` is false (docs/SECURITY.md).
import { anyMatch, digestId, eventName, header, hmac, providerId, refuse } from './common.ts';
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
  identify({ headers, rawBody }) {
    providerId(header(headers, 'x-github-delivery'), 'X-GitHub-Delivery');
    return {
      deliveryId: digestId(rawBody),
      event: eventName(header(headers, 'x-github-event') ?? '', 'X-GitHub-Event'),
      test: false,
      signed: { deliveryId: true, event: false, test: false },
    };
  },
};
