// Test support for the client: a client bound to a tenant, with a log of the request bodies it sent
// (the app on a loopback port is harness.ts's useListeningApp).
import { createRelayClient, type ApiVersion, type RelayClient } from '../../src/client/index.ts';
import type { Tenant } from '../helpers/factories.ts';

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** A client for the tenant; `sent` records each request as it left (the fetch is the real one). */
export function clientFor(baseUrl: string, tenant: Tenant, version?: ApiVersion, secretKey = tenant.secretKey): { client: RelayClient; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    sent.push({ method: init?.method ?? 'GET', path: url.pathname + url.search, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    return fetch(input, init);
  };
  return { client: createRelayClient({ baseUrl, channelId: tenant.channelId, secretKey, version, fetch: recordingFetch }), sent };
}

/** Rejections as values, so a test can assert on the error's fields. */
export const failure = (p: Promise<unknown>): Promise<any> => p.then(() => new Error('expected a refusal, got success'), (err: unknown) => err);
