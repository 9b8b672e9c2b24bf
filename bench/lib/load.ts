// A small closed-loop load generator over keep-alive HTTP, with latency percentiles.
// Bounded by request count and by time; loopback targets only.
import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export interface LoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | ((i: number) => string);
  concurrency: number;
  requests: number;
  maxSeconds?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const url = new URL(opts.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error('benchmarks target loopback only');
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const deadline = Date.now() + (opts.maxSeconds ?? 60) * 1000;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const body = typeof opts.body === 'function' ? opts.body(i) : opts.body;
      const started = process.hrtime.bigint();
      const req = http.request(url, { method: opts.method ?? 'GET', headers: { ...opts.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) }, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if ((res.statusCode ?? 0) >= 400) errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      if (body) req.write(body);
      req.end();
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (issued < opts.requests && Date.now() < deadline) await one(issued++);
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export function formatLoad(name: string, r: LoadResult): string {
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${r.requests} requests, ${r.errors} errors)`;
}

/**
 * Open-loop pacing: calls `fn(i)` `count` times at `perSecond`, on schedule whether or not earlier
 * calls have finished (as independent senders arrive), and waits for all of them. `signal` ends it
 * early (count may then be Infinity): no call starts after the abort.
 */
export async function paced(count: number, perSecond: number, fn: (i: number) => Promise<unknown>, signal?: AbortSignal): Promise<void> {
  const started = performance.now();
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < count && !signal?.aborted; i++) {
    const wait = started + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (signal?.aborted) break;
    calls.push(fn(i));
  }
  await Promise.all(calls);
}
