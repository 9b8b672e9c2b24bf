// The transport of the public API client: base URL, channel prefix, the key header, JSON in and
// out, a total timeout, and one error type carrying the server's status and stable `code`.
import type { ApiVersion } from './types.ts';

export interface RelayClientOptions {
  /** Service base URL, e.g. https://relay.example.com (spec {base_url}). */
  baseUrl: string;
  channelId: string;
  secretKey: string;
  version?: ApiVersion;
  /** Total time for one request, default 10 s. */
  timeoutMs?: number;
  /** Injected for tests or custom agents; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** A request the API refused or could not answer. `status` is 0 when no response arrived. */
export class RelayApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RelayApiError';
  }
}

export type Send = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts?: { query?: Record<string, string>; body?: unknown }) => Promise<T>;

export function createTransport(opts: RelayClientOptions): Send {
  const version = opts.version ?? '2.0';
  const prefix = `${opts.baseUrl.replace(/\/+$/, '')}/api/public/channels/${encodeURIComponent(opts.channelId)}/${version}`;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;

  return async function send<T>(method: string, path: string, req: { query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
    const url = new URL(prefix + path);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { 'X-API-Secret-Key': opts.secretKey, Accept: 'application/json' };
    if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw new RelayApiError(0, timedOut ? 'timeout' : 'network_error', timedOut ? `no answer within ${timeoutMs} ms` : String((err as Error).message));
    }
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok || body?.success === false) {
      const code = typeof body?.code === 'string' ? body.code : `http_${res.status}`;
      const message = typeof body?.message === 'string' ? body.message : typeof body?.statusMessage === 'string' ? body.statusMessage : `HTTP ${res.status}`;
      throw new RelayApiError(res.status, code, message);
    }
    if (!body) throw new RelayApiError(res.status, 'invalid_response', 'response is not JSON');
    return body as T;
  } as Send;
}
