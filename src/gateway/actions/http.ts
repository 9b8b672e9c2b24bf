// `http`: sends the evaluated request through the outbound client (total timeout, no redirects,
// the SSRF guard of outgoing webhooks). 2xx succeeds; network trouble, timeouts, 408, 429 and 5xx
// retry; a blocked address, a bad URL, a redirect or another 4xx fail at once.
import { failed, ok, type ActionContext, type ActionOutcomeReport } from './report.ts';
import type { HttpSpec } from './specs.ts';

export type { OutboundSender } from './report.ts';

export async function runHttp(spec: HttpSpec, ctx: ActionContext): Promise<ActionOutcomeReport> {
  const res = await ctx.outbound.send({ method: spec.method, url: spec.url, headers: spec.headers, ...(spec.body !== null ? { body: spec.body } : {}) });
  const result = { status: res.status, durationMs: res.durationMs, body: res.body, bodyTruncated: res.bodyTruncated };
  if (res.ok) return ok(result);
  if (res.status !== null && res.status !== undefined) {
    const retry = res.status >= 500 || res.status === 408 || res.status === 429;
    // The client's message names a redirect's Location, which the operator needs to fix the URL.
    return failed(res.error?.message ?? `HTTP ${res.status}`, retry, result);
  }
  const code = res.error?.code ?? 'network';
  return failed(`${code}: ${res.error?.message ?? 'no response'}`, code === 'timeout' || code === 'network', result);
}
