// The test runtime's app on a real loopback port, so that what our API sends (webhook deliveries)
// and what the gateway calls (the public API) cross a real HTTP socket.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { TestRuntime } from '../../helpers/harness.ts';

export function useListeningApp(rt: TestRuntime): { baseUrl: string } {
  const state = { baseUrl: '' };
  let server: http.Server | undefined;
  beforeAll(async () => {
    server = http.createServer(rt.app.callback());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  });
  return state;
}
