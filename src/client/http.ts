// The transport of the public API client: base URL, channel prefix, the key header, JSON in and
// out, a timeout, and one error type carrying the server's status and stable `code`.
import type { ApiVersion } from './types.ts';

export interface RelayClientOptions {
  /** Service base URL, e.g. https://relay.example.com (spec {base_url}). */
  baseUrl: string;
  channelId: string;
  secretKey: string;
  /** Path version of every call except the streams, which pick theirs (spec "Versioning"). Default 2.0. */
  version?: ApiVersion;
  /** Total time for one JSON request, and for a stream's response headers; default 10 s. */
  timeoutMs?: number;
  /** Injected for tests or custom agents; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/**
 * A request the API refused or could not answer. `status` is 0 when no response arrived. `details`
 * holds the rest of the error body, e.g. `statusMessage` of a /conversation 429 (spec "Chat").
 */
export class RelayApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'RelayApiError';
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestSpec {
  query?: Record<string, string>;
  body?: unknown;
  /** Overrides the client's version for this call. */
  version?: ApiVersion;
}

export type Send = <T>(method: Method, path: string, opts?: RequestSpec) => Promise<T>;

/** POSTs and returns the open response once its status is a success; a refusal throws first. */
export type OpenStream = (path: string, body: unknown, opts: { version: ApiVersion; signal?: AbortSignal }) => Promise<Response>;

export interface Transport {
  version: ApiVersion;
  send: Send;
  openStream: OpenStream;
}

type Body = Record<string, unknown> | undefined;

function parseJson(text: string): Body {
  try {
    const value: unknown = text ? JSON.parse(text) : undefined;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The spec's error body is `{ success: false, code, message }`; /conversation's 429 says `statusMessage`. */
function refusal(status: number, body: Body): RelayApiError {
  const { success: _success, code, message, ...details } = body ?? {};
  const text = typeof message === 'string' ? message : typeof details.statusMessage === 'string' ? details.statusMessage : `HTTP ${status}`;
  return new RelayApiError(status, typeof code === 'string' ? code : `http_${status}`, text, details);
}

function unreachable(err: unknown, timeoutMs: number): RelayApiError {
  const timedOut = (err as Error).name === 'TimeoutError';
  return new RelayApiError(0, timedOut ? 'timeout' : 'network_error', timedOut ? `no answer within ${timeoutMs} ms` : String((err as Error).message));
}

export function createTransport(opts: RelayClientOptions): Transport {
  const version = opts.version ?? '2.0';
  const base = `${opts.baseUrl.replace(/\/+$/, '')}/api/public/channels/${encodeURIComponent(opts.channelId)}`;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;

  const init = (method: Method, body: unknown, accept: string, signal: AbortSignal): RequestInit => ({
    method,
    headers: { 'X-API-Secret-Key': opts.secretKey, Accept: accept, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
    signal,
  });

  const send = async function send<T>(method: Method, path: string, req: RequestSpec = {}): Promise<T> {
    const url = new URL(`${base}/${req.version ?? version}${path}`);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, init(method, req.body, 'application/json', AbortSignal.timeout(timeoutMs)));
      text = await res.text();
    } catch (err) {
      throw unreachable(err, timeoutMs);
    }
    const body = parseJson(text);
    if (!res.ok || body?.success === false) throw refusal(res.status, body);
    if (!body) throw new RelayApiError(res.status, 'invalid_response', 'response is not JSON');
    return body as T;
  } as Send;

  // A reply may stream for longer than any sensible request timeout, so the timeout covers only the
  // wait for the response headers; after that the caller's signal is the only way to stop it.
  const openStream: OpenStream = async (path, body, { version: streamVersion, signal }) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let res: Response;
    try {
      res = await doFetch(`${base}/${streamVersion}${path}`, init('POST', body, 'text/event-stream, application/x-ndjson, application/json', controller.signal));
    } catch (err) {
      signal?.removeEventListener('abort', onAbort);
      throw signal?.aborted ? err : unreachable(err, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    // Limits and validation answer as ordinary JSON before any chunk (spec "Streaming on 2.0").
    if (!res.ok) {
      signal?.removeEventListener('abort', onAbort);
      throw refusal(res.status, parseJson(await res.text().catch(() => '')));
    }
    if (!res.body) throw new RelayApiError(res.status, 'invalid_response', 'the stream has no body');
    return res;
  };

  return { version, send, openStream };
}
