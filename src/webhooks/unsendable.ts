// Deliveries that can never be sent: the limits of a rendered request, the reasons a delivery fails
// before its first attempt, and the failed record that takes its place in the hook's log, so what
// cannot be sent is seen there instead of failing the deliveries it was created with (docs/WEBHOOKS.md,
// "Limits").

/** A rendered body above this is never stored or sent (`payload_too_large`). */
export const DELIVERY_BODY_LIMIT_BYTES = 1024 * 1024;
/** The rendered URL (`url_too_long`): above what common servers and proxies take. */
export const DELIVERY_URL_LIMIT_BYTES = 16 * 1024;
/** The rendered custom headers, names and values together (`headers_too_large`). */
export const DELIVERY_HEADERS_LIMIT_BYTES = 64 * 1024;

export interface RequestLimits {
  bodyBytes: number;
  urlBytes: number;
  headersBytes: number;
}
export const DELIVERY_LIMITS: RequestLimits = { bodyBytes: DELIVERY_BODY_LIMIT_BYTES, urlBytes: DELIVERY_URL_LIMIT_BYTES, headersBytes: DELIVERY_HEADERS_LIMIT_BYTES };

export const UNSENDABLE_REASONS = [
  'payload_too_large',
  'url_too_long',
  'headers_too_large',
  /** The template would choose the scheme, host or port (docs/WEBHOOKS.md, "Custom payloads"). */
  'url_not_allowed',
  /** Any other failure to build the request from the hook and the event. */
  'render_failed',
  /** The database refused the delivery's row (not because it was away). */
  'store_failed',
  /** The event's fan-out kept failing and the event sweep gave it up (src/events/service.ts). */
  'dispatch_abandoned',
] as const;
export type UnsendableReason = (typeof UNSENDABLE_REASONS)[number];

/** A delivery's request cannot be built: the delivery is recorded failed with this reason. */
export class UnsendableRequest extends Error {
  constructor(
    readonly reason: UnsendableReason,
    message: string,
  ) {
    super(message);
  }
}

/** Why the delivery was never sent, as its row stores it and the log shows it. */
export interface UnsendableError {
  code: UnsendableReason;
  message: string;
}

const FALLBACK_PREFIX: Partial<Record<UnsendableReason, string>> = {
  render_failed: 'the request could not be built',
  store_failed: "the database refused the delivery's row",
};

export function unsendableError(err: unknown, fallback: UnsendableReason): UnsendableError {
  if (err instanceof UnsendableRequest) return { code: err.reason, message: err.message };
  const detail = String(err instanceof Error ? err.message : err).slice(0, 500);
  return { code: fallback, message: FALLBACK_PREFIX[fallback] ? `${FALLBACK_PREFIX[fallback]}: ${detail}` : detail };
}

/** Throws when a rendered part is over its limit. */
export function checkRequestSize(request: { url: string; headers: Record<string, string>; body: string }, limits: RequestLimits): void {
  const urlBytes = Buffer.byteLength(request.url);
  if (urlBytes > limits.urlBytes) throw tooLarge('url', limits.urlBytes, urlBytes);
  let headerBytes = 0;
  for (const [name, value] of Object.entries(request.headers)) headerBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  if (headerBytes > limits.headersBytes) throw tooLarge('headers', limits.headersBytes, headerBytes);
  const bodyBytes = Buffer.byteLength(request.body);
  if (bodyBytes > limits.bodyBytes) throw tooLarge('body', limits.bodyBytes, bodyBytes);
}

const PARTS = {
  body: { reason: 'payload_too_large', what: 'body' },
  url: { reason: 'url_too_long', what: 'URL' },
  headers: { reason: 'headers_too_large', what: 'headers' },
} as const;

/** `size` absent: rendering stopped once past the limit, so the full size is unknown. */
export function tooLarge(part: keyof typeof PARTS, limit: number, size?: number): UnsendableRequest {
  const { reason, what } = PARTS[part];
  const measured = size === undefined ? 'over the limit' : `${size} bytes, over the limit`;
  return new UnsendableRequest(reason, `the rendered ${what} is ${measured} of ${limit} bytes (docs/WEBHOOKS.md, "Limits")`);
}
