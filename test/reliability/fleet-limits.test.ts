// Issue 39, hook limits across the fleet, with real processes: two `ROLE=api` instances on one
// database each send the first attempts of the conversations they create to one hook with
// `concurrency: 2`. The receiver (a real HTTP server here) never has more than 2 requests open,
// where per-process lanes let it have 4. Then one instance is killed with -9 while it holds both
// slots: the other sends nothing to the hook until the dead holder's leases run out, then sends.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { adminApi, bootstrap, eventually, publicApi, relayCluster, type Relay, type Tenant } from './support/cluster.ts';

describe('a hook\'s concurrency across two api instances', () => {
  // The default outbound timeout (10 s): a slot's lease is 15 s.
  const cluster = relayCluster({ MONGODB_URI: databaseUri(uniqueDatabaseName()), JOB_PROCESS_EVERY_MS: '200' });
  let server: http.Server;
  let url = '';
  // Requests open right now (a killed sender's close with it), the most at once, and arrivals.
  let open = 0;
  let most = 0;
  const arrivals: number[] = [];
  /**
   * 'answer': 200 after a second, so each instance's requests overlap the other's even while its
   * conversations trickle in (each costs the database a few writes); 'hold': never answered.
   */
  let mode: 'answer' | 'hold' = 'answer';
  let apis: Relay[];
  let tenant: Tenant;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      open++;
      most = Math.max(most, open);
      arrivals.push(Date.now());
      res.on('close', () => open--);
      if (mode === 'answer') setTimeout(() => res.writeHead(200).end('ok'), 1_000);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    apis = [await cluster.start('api'), await cluster.start('api')];
    tenant = await bootstrap(apis[0]!);
    const created = await adminApi(apis[0]!)('POST', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url, concurrency: 2 });
    expect(created.status).toBe(201);
    expect((await adminApi(apis[0]!)('PUT', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/enabled`, { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await cluster.stopAll();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  const converse = (api: Relay, n: number) => Promise.all(Array.from({ length: n }, () => publicApi(api, tenant)('POST', '/conversation', {})));

  it('never has more than 2 requests open at the receiver, with both instances sending at once', { timeout: 300_000 }, async () => {
    const created = await Promise.all([converse(apis[0]!, 8), converse(apis[1]!, 8)]);
    expect(created.flat().every((r) => r.status < 300)).toBe(true);
    await eventually(() => arrivals.length === 16 && open === 0, 120_000);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('frees the slots of an instance killed mid-attempt once their leases run out, and not before', { timeout: 300_000 }, async () => {
    const [doomed, survivor] = apis as [Relay, Relay];
    mode = 'hold';
    const from = arrivals.length;
    await converse(doomed, 2);
    await eventually(() => open === 2, 60_000);
    const held = await (await cluster.db())
      .collection<{ _id: string; holder: string | null; expiresAt: Date }>('webhooklimits')
      .find({ holder: { $ne: null }, expiresAt: { $gt: new Date() } })
      .toArray();
    expect(held).toHaveLength(2);
    await cluster.crash(doomed);
    // Its sockets closed with it: the receiver has nothing open, yet the slots stay held.
    await eventually(() => open === 0, 30_000);

    mode = 'answer';
    // Created 2 s after the dead holder took its slots, so they wait less than a lease for them: a
    // first attempt that waits longer is left to the workers, and this cluster has none.
    await eventually(() => Date.now() >= arrivals[from]! + 2_000, 10_000, 50);
    await converse(survivor, 2);
    await eventually(() => arrivals.length === from + 4 && open === 0, 120_000);
    const firstFree = Math.min(...held.map((l) => l.expiresAt.getTime()));
    expect(arrivals.slice(from + 2).every((at) => at >= firstFree)).toBe(true);
    expect(most).toBeLessThanOrEqual(2);
  });
});
