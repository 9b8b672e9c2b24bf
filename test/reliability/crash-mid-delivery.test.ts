// A worker killed (SIGKILL) while its webhook attempt is on the wire: the receiver gets the retry
// from another worker with the same X-Service-Delivery-Id and the same bytes, and the delivery ends
// delivered. The attempt that died is recorded as interrupted, not lost and not counted as sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { startSink, type Sink } from '../webhooks/sink.ts';
import { adminApi, bootstrap, enabledHook, eventually, publicApi, relayCluster, type Relay, type Tenant } from './support/cluster.ts';

describe('a worker killed in the middle of a webhook attempt', () => {
  const cluster = relayCluster({
    MONGODB_URI: databaseUri(uniqueDatabaseName()),
    JOB_PROCESS_EVERY_MS: '200',
    // Far longer than the test holds the request, so the attempt cannot end by timing out first;
    // the lease (timeout + 5 s) is still shorter than the sweep's 60 s grace period.
    OUTBOUND_TIMEOUT_MS: '20000',
  });
  let sink: Sink;
  let api: Relay;
  let tenant: Tenant;
  let hookId: string;

  beforeAll(async () => {
    // The first request is held open forever; every later one is answered 200.
    sink = await startSink((_req, index) => (index === 0 ? 'hang' : { status: 200, body: 'ok' }));
    api = await cluster.start('api');
    tenant = await bootstrap(api);
    hookId = await enabledHook(api, tenant, 'sync.success', `${sink.url}/hook`);
  });
  afterAll(async () => {
    await cluster.stopAll();
    await sink?.close();
  });

  it('retries from a new worker with the same delivery id and byte-identical body, and ends delivered', { timeout: 400_000 }, async () => {
    const first = await cluster.start('worker');
    const pub = publicApi(api, tenant);
    const ds = (await pub('POST', '/data-sources')).body.dataSource;
    expect((await pub('POST', '/data-sources/row', { dataSourceId: ds.id, dataSourceRows: [{ name: 'faq', content: '# FAQ\n\nOpening hours are 9 to 5.' }] })).status).toBe(200);
    expect((await pub('POST', '/data-sources/sync', { dataSourceId: ds.id })).status).toBe(200);

    // The worker runs the sync, emits sync.success and sends the first attempt itself.
    await eventually(() => sink.requests.length === 1, 120_000);
    await cluster.crash(first);

    const deliveries = async () => (await adminApi(api)('GET', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`)).body.deliveries;
    const [held] = await deliveries();
    expect(held).toMatchObject({ status: 'pending', attempts: [{ number: 1, status: 'pending' }] });

    await cluster.start('worker');
    // The new worker's sweep finds the overdue delivery (grace 2 × the 30 s lock lifetime, runs every minute).
    const delivered = await eventually(async () => {
      const [d] = await deliveries();
      return d?.status === 'delivered' && d;
    }, 300_000, 1000);

    expect(sink.requests).toHaveLength(2);
    const [lost, retry] = sink.requests;
    expect(lost!.headers['x-service-delivery-id']).toBe(delivered.id);
    expect(retry!.headers['x-service-delivery-id']).toBe(delivered.id);
    expect(retry!.raw.equals(lost!.raw)).toBe(true);
    expect(retry!.raw.toString('utf8')).toBe(delivered.request.body);
    expect(delivered.attempts.map((a: { number: number; status: string }) => [a.number, a.status])).toEqual([
      [1, 'interrupted'],
      [2, 'succeeded'],
    ]);
  });
});
