// Calls the real app and keeps each request and answer under its operation, the way the OpenAPI
// document shows them (src/openapi/exchange.ts). Only successful calls keep their request: the
// document shows request examples for those; a refusal's answer is what its example needs.
import { expect } from 'vitest';
import type { RecordedExamples } from '../../../src/openapi/exchange.ts';
import { TEST_ADMIN_TOKEN, type TestRuntime } from '../../helpers/harness.ts';

export interface Call {
  /** The operation as the document spells it: `post /api/admin/bots`. */
  key: string;
  /** The concrete path called, without the query. */
  url: string;
  summary: string;
  status: number;
  query?: Record<string, string>;
  /** JSON to send. */
  body?: unknown;
  /** Exact text to send instead, with its Content-Type. */
  raw?: { contentType: string; text: string };
  /** Headers the operation documents (recorded). */
  headers?: Record<string, string>;
  /** Credentials and the like (never recorded). */
  auth?: Record<string, string>;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export class Recorder {
  readonly exchanges: RecordedExamples = {};
  /** The concrete path and request of each operation's first successful call, for the refusal walks. */
  readonly firstCalls = new Map<string, Call>();

  constructor(private readonly rt: TestRuntime) {}

  async send(c: Omit<Call, 'summary' | 'status'>) {
    const method = c.key.split(' ')[0] as Method;
    const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
    let req = this.rt.http()[method](`${c.url}${query}`);
    for (const [name, value] of Object.entries({ ...c.auth, ...c.headers })) req = req.set(name, value);
    if (c.raw) return req.set('Content-Type', c.raw.contentType).send(c.raw.text);
    return c.body === undefined ? req : req.send(c.body as object);
  }

  /** Calls, expects the status, records the exchange and returns the answer's body. */
  async call(c: Call): Promise<any> {
    const res = await this.send(c);
    expect(res.status, `${c.key} (${c.summary}): ${res.text?.slice(0, 800)}`).toBe(c.status);
    const ok = res.status < 300;
    const request = ok ? requestOf(c) : undefined;
    const list = (this.exchanges[c.key] ??= []);
    expect(
      list.map((e) => e.summary),
      `${c.key}: one summary per example`,
    ).not.toContain(c.summary);
    list.push({ summary: c.summary, status: res.status, ...(request ? { request } : {}), response: res.body });
    if (ok && !this.firstCalls.has(c.key)) this.firstCalls.set(c.key, c);
    return res.body;
  }

  /** An admin API call: `admin('post', '/bots', '/bots', { body, status: 201, summary })`. */
  admin(method: Method, path: string, url: string, rest: Omit<Call, 'key' | 'url'>) {
    return this.call({ ...rest, key: `${method} /api/admin${path}`, url: `/api/admin${url}`, auth: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...rest.auth } });
  }
}

function requestOf(c: Call): NonNullable<RecordedExamples[string][number]['request']> | undefined {
  const request = {
    ...(c.raw && c.raw.contentType !== 'application/json' ? { contentType: c.raw.contentType } : {}),
    ...(c.headers ? { headers: c.headers } : {}),
    ...(c.query ? { query: c.query } : {}),
    ...(c.raw ? { body: c.raw.contentType === 'application/json' ? JSON.parse(c.raw.text) : c.raw.text } : c.body !== undefined ? { body: c.body } : {}),
  };
  return Object.keys(request).length ? request : undefined;
}
