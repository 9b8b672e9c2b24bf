// TLS to outbound targets is verified: a self-signed server is a network failure, not a delivery.
// The fixture is a throwaway localhost certificate generated for this test (never trusted anywhere).
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../src/outbound/client.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe('outbound TLS', () => {
  let server: https.Server;
  let port = 0;
  let handled = 0;
  beforeAll(async () => {
    server = https.createServer({ key: fixture('self-signed.key'), cert: fixture('self-signed.crt') }, (_req, res) => {
      handled += 1;
      res.end('secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a server whose certificate is not trusted and sends it no request', async () => {
    const client = createOutboundClient({ allowPrivate: true, timeoutMs: 2000, responseLimitBytes: 1024 });
    const res = await client.send({ method: 'POST', url: `https://127.0.0.1:${port}/hook`, body: '{}' });
    await client.close();
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'network' } });
    expect(res.error?.message).toMatch(/certificate|CERT/i);
    expect(handled).toBe(0);
  });

  it('refuses the loopback https target outright when the guard is on', async () => {
    const client = createOutboundClient({ allowPrivate: false, timeoutMs: 2000, responseLimitBytes: 1024 });
    const res = await client.send({ method: 'GET', url: `https://localhost:${port}/` });
    await client.close();
    expect(res.error?.code).toBe('blocked_address');
    expect(handled).toBe(0);
  });
});
