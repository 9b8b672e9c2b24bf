// The guarded HTTP client for every request Relay sends to a user-chosen URL (outgoing
// webhooks, the gateway's http action): SSRF guard, no redirects, one total timeout and a
// capped, never-decompressed response body. See docs/OUTBOUND.md.
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { Config } from '../config.ts';
import { BlockedAddressError, guardedLookup, parseOutboundUrl } from './addressPolicy.ts';
import { startDeadline } from './deadline.ts';
import { CappedBody, readCappedBody } from './responseBody.ts';

export type OutboundMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface OutboundRequest {
  method: OutboundMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}
export type OutboundErrorCode = 'invalid_url' | 'blocked_address' | 'timeout' | 'network' | 'redirect' | 'http_status';
export interface OutboundResponse {
  /** true only for 2xx with no error */
  ok: boolean;
  /** null when no response arrived */
  status: number | null;
  headers: Record<string, string>;
  /** at most responseLimitBytes bytes of the body (utf8), the rest discarded while streaming */
  body: string;
  bodyTruncated: boolean;
  durationMs: number;
  error: { code: OutboundErrorCode; message: string } | null;
}
type OutboundFailure = { code: OutboundErrorCode; message: string };

export interface OutboundClientOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  responseLimitBytes: number;
  /** injectable DNS for tests */
  lookup?: LookupFunction;
}
export interface SendOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}
export interface OutboundClient {
  /** Never throws: every failure is an OutboundResponse with `error` set. */
  send(req: OutboundRequest, opts?: SendOptions): Promise<OutboundResponse>;
}

/** Framing and hop-by-hop headers are ours to set; undici rejects several of them anyway. */
const RESERVED_HEADERS = new Set([
  'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade',
  'expect', 'te', 'trailer', 'proxy-connection', 'proxy-authorization', 'accept-encoding',
]);

function requestHeaders(url: URL, given: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': 'Relay-Outbound/1' };
  // Credentials in the URL become Basic auth: undici would otherwise send them nowhere.
  if (url.username || url.password) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  for (const [name, value] of Object.entries(given ?? {})) {
    if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  // Never let the server compress: we store raw bytes and must not inflate a gzip bomb.
  headers['accept-encoding'] = 'identity';
  return headers;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function findBlocked(err: unknown): BlockedAddressError | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedAddressError) return e;
  }
  return null;
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const message = e?.cause?.message ?? e?.message ?? String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function statusFailure(status: number, headers: Record<string, string>): OutboundFailure | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    const location = headers.location;
    return { code: 'redirect', message: `HTTP ${status} redirect not followed${location ? ` (Location: ${location})` : ''}` };
  }
  return { code: 'http_status', message: `HTTP ${status}` };
}

export function createOutboundClient(opts: OutboundClientOptions): OutboundClient & { close(): Promise<void> } {
  const lookup = opts.allowPrivate ? opts.lookup : guardedLookup(opts.lookup);
  // One agent per client keeps connections alive between deliveries; the lookup hook runs
  // for every new connection, so pooled sockets were all checked when they were opened.
  // connectTimeout bounds a connection attempt that outlives an abandoned request.
  const agent = new Agent({ connect: lookup ? { lookup } : {}, connectTimeout: opts.timeoutMs });

  async function send(req: OutboundRequest, sendOpts: SendOptions = {}): Promise<OutboundResponse> {
    const started = performance.now();
    const result = (status: number | null, headers: Record<string, string>, body: CappedBody | null, error: OutboundFailure | null): OutboundResponse => ({
      ok: error === null && status !== null && status >= 200 && status < 300,
      status,
      headers,
      body: body?.text() ?? '',
      bodyTruncated: body?.truncated ?? false,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      error,
    });

    const target = parseOutboundUrl(req.url, opts.allowPrivate);
    if (!(target instanceof URL)) return result(null, {}, null, target);

    // One deadline for DNS, connect, headers and body together: a trickling body cannot extend it.
    const timeoutMs = sendOpts.timeoutMs ?? opts.timeoutMs;
    const deadline = startDeadline(timeoutMs, sendOpts.signal);
    let status: number | null = null;
    let headers: Record<string, string> = {};
    const body = new CappedBody(opts.responseLimitBytes);
    try {
      const pending = request(target, {
        dispatcher: agent,
        method: req.method,
        headers: requestHeaders(target, req.headers),
        body: req.body,
        signal: deadline.signal,
      });
      const res = await deadline.race(pending, (late) => late.body.destroy());
      status = res.statusCode;
      headers = flattenHeaders(res.headers);
      await deadline.race(readCappedBody(res.body, body));
      return result(status, headers, body, statusFailure(status, headers));
    } catch (err) {
      const blocked = findBlocked(err);
      if (blocked) return result(null, {}, null, { code: 'blocked_address', message: blocked.message });
      const partial = status === null ? null : body;
      if (deadline.timedOut()) return result(status, headers, partial, { code: 'timeout', message: `no complete response within ${timeoutMs} ms` });
      if (sendOpts.signal?.aborted) return result(status, headers, partial, { code: 'network', message: 'aborted by caller' });
      return result(status, headers, partial, { code: 'network', message: describe(err) });
    } finally {
      deadline.dispose();
    }
  }

  return { send, close: () => agent.close() };
}

/** The client as configured by OUTBOUND_ALLOW_PRIVATE, OUTBOUND_TIMEOUT_MS and OUTBOUND_RESPONSE_LIMIT_BYTES. */
export function outboundClientFromConfig(
  config: Pick<Config, 'OUTBOUND_ALLOW_PRIVATE' | 'OUTBOUND_TIMEOUT_MS' | 'OUTBOUND_RESPONSE_LIMIT_BYTES'>,
): OutboundClient & { close(): Promise<void> } {
  return createOutboundClient({
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    responseLimitBytes: config.OUTBOUND_RESPONSE_LIMIT_BYTES,
  });
}
