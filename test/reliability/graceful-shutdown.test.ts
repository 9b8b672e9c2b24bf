// SIGTERM to a worker while it holds a webhook retry on the wire: drain() lets the attempt finish,
// so the receiver sees that attempt once (not again from the other worker), the delivery ends
// delivered, and the process exits 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { startSink, type Sink } from '../webhooks/sink.ts';
import { adminApi, bootstrap, enabledHook, eventually, lockedJob, publicApi, relayCluster, type Relay, type Tenant } from './support/cluster.ts';

describe('graceful shutdown of a worker with a delivery in flight', () => {
  const cluster = relayCluster({
    MONGODB_URI: databaseUri(uniqueDatabaseName()),
    JOB_PROCESS_EVERY_MS: '200',
    // Longer than the test holds the request, so the attempt ends by our answer, not a timeout.
    OUTBOUND_TIMEOUT_MS: '20000',
  });
  let sink: Sink;
  let api: Relay;
  let tenant: Tenant;
  let hookId: string;
  let answerHeld: () => void = () => undefined;

  beforeAll(async () => {
    const held = new Promise<void>((resolve) => (answerHeld = resolve));
    // 1st request (first attempt, from the api process): 500, so the retry goes through Agenda to a
    // worker. 2nd (the retry): answered 200 only when the test says so. Any later one: 200.
    sink = await startSink(async (_req, index) => {
      if (index === 0) return { status: 500, body: 'try again' };
      if (index === 1) await held;
      return { status: 200, body: 'ok' };
    });
    api = await cluster.start('api');
    tenant = await bootstrap(api);
    hookId = await enabledHook(api, tenant, 'conversation.started', `${sink.url}/hook`);
  });
  afterAll(async () => {
    answerHeld();
    await cluster.stopAll();
    await sink?.close();
  });

  it('lets the running attempt finish, sends it once and exits 0', { timeout: 300_000 }, async () => {
    const workers = [await cluster.start('worker'), await cluster.start('worker')];
    expect((await publicApi(api, tenant)('POST', '/conversation', {})).status).toBeLessThan(300);

    // The retry comes about 30 s after the failed first attempt, from whichever worker locks it.
    await eventually(() => sink.requests.length === 2, 120_000);
    // The holder is the worker whose claim of attempt 2 is in flight (the claim row; its result is
    // written apart, once the held request ends). Not the Agenda job's lock:
    // on FerretDB both workers may lock the job at once, and the one that loses the claim unlocks
    // the job row as it finishes (docs/FERRETDB.md).
    const claim = await eventually(
      async () => (await cluster.db()).collection('webhookdeliveryattempts').findOne<{ runner: string | null }>({ number: 2 }),
      30_000,
    );
    const holder = workers.find((w) => w.agendaName === claim.runner);
    const other = workers.find((w) => w !== holder)!;
    expect(holder, `attempt 2 is claimed by ${claim.runner}`).toBeDefined();

    holder!.child.kill('SIGTERM');
    await holder!.waitForLog((l) => l.msg === 'relay: shutting down', 30_000);
    answerHeld();
    expect(await holder!.exited).toBe(0);

    const deliveries = async () => (await adminApi(api)('GET', `/bots/${tenant.botId}/webhooks/${hookId}/deliveries`)).body.deliveries;
    const [delivery] = await deliveries();
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a: { number: number; status: string }) => [a.number, a.status])).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
    // The other worker is still polling; it finds nothing to resend (a stop() that unlocked the
    // job would have let it take the attempt again once the lease ran out).
    expect(other.alive()).toBe(true);
    expect(await lockedJob(await cluster.db(), 'webhooks.deliver')).toBeNull();
    expect(sink.requests).toHaveLength(2);
    expect(sink.requests.map((r) => r.headers['x-service-delivery-id'])).toEqual([delivery.id, delivery.id]);
  });
});
