// Test support for the client: the real app on a loopback port (streams need a real socket) and a
// client bound to a tenant, with an optional log of the request bodies it sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createRelayClient, type ApiVersion, type RelayClient } from '../../src/client/index.ts';
import type { TestRuntime } from '../helpers/harness.ts';
import type { Tenant } from '../helpers/factories.ts';

export function useListeningApp(rt: TestRuntime): { baseUrl: string } {
  const state = { baseUrl: '' };
  let server: http.Server | undefined;
  beforeAll(async () => {
    server = http.createServer(rt.app.callback());
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
  });
  return state;
}

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
