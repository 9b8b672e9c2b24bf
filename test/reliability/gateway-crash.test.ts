// Gateway processes killed (SIGKILL) between storing a delivery and finishing its actions: a new
// worker runs the action, and the receiver sees it exactly once when the crash came before the
// request left, and exactly twice (at-least-once: the lost request, then the retry) when the
// crash came while the request was on the wire.
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { startSink, type Sink } from '../webhooks/sink.ts';
import { adminApi, eventually, lockedJob, relayCluster, type Relay } from './support/cluster.ts';

const SECRET = 'reliability-gateway-secret-0123456789';

async function sendSigned(relay: Relay, payload: Record<string, unknown>, deliveryId: string = randomUUID()) {
  const body = JSON.stringify({ ...payload, deliveryId });
  const res = await fetch(`${relay.url}/gateway/relay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`, 'x-service-delivery-id': deliveryId },
    body,
  });
  return { status: res.status, body: (await res.json()) as { id: string }, deliveryId };
}

type ActionView = { status: string; attempts: number };
const actionsOf = (delivery: { rules: Array<{ actions: ActionView[] }> }) => delivery.rules.flatMap((r) => r.actions);

describe('gateway processes killed before their actions finish', () => {
  let sink: Sink;
  let files: ReturnType<typeof gatewayFiles>;
  let cluster: ReturnType<typeof relayCluster>;
  let api: Relay;
  /** Paths whose first request the sink holds open forever. */
  const holdFirst = new Set<string>();

  beforeAll(async () => {
    sink = await startSink((req) => {
      if (holdFirst.has(req.path) && sink.requests.filter((r) => r.path === req.path).length === 1) return 'hang';
      return { status: 200, body: 'ok' };
    });
    files = gatewayFiles(
      { sources: { relay: { secrets: [SECRET] } }, vars: { sink: sink.url } },
      { 'notify.json': { name: 'notify', actions: [{ type: 'http', url: "vars.sink & '/hook/' & deliveryId", body: 'payload' }] } },
    );
    cluster = relayCluster({
      MONGODB_URI: databaseUri(uniqueDatabaseName()),
      JOB_PROCESS_EVERY_MS: '200',
      // Longer than the test holds a request, so an attempt ends by the crash, not a timeout.
      OUTBOUND_TIMEOUT_MS: '20000',
      ...files.env,
    });
    api = await cluster.start('api');
  });
  afterAll(async () => {
    await cluster?.stopAll();
    await sink?.close();
  });

  const record = async (id: string) => (await adminApi(api)('GET', `/gateway/deliveries/${id}`)).body.delivery;

  it('runs the action exactly once on a new worker after the accepting process is killed right after answering', { timeout: 400_000 }, async () => {
    const intake = await cluster.start('api');
    const sent = await sendSigned(intake, { event: 'conversation.started', conversation: { id: 'c-1' } });
    expect(sent.status).toBe(202);
    // No worker is running: the delivery is stored and nothing has acted on it yet.
    await cluster.crash(intake);
    expect(sink.requests).toHaveLength(0);

    const worker = await cluster.start('worker');
    // Agenda's queued process job runs at once; had the kill beaten the 20 ms enqueue window, the
    // sweep enqueues the stored delivery after its 2 minute grace period instead.
    const done = await eventually(async () => {
      const d = await record(sent.body.id);
      return actionsOf(d)[0]?.status === 'succeeded' && d;
    }, 300_000, 1000);
    expect(actionsOf(done)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1 })]);
    expect(sink.requests.filter((r) => r.path === `/hook/${sent.deliveryId}`)).toHaveLength(1);
    await cluster.crash(worker);
  });

  it('runs the action again on a new worker after the worker is killed while the request is on the wire, twice in all', { timeout: 400_000 }, async () => {
    const first = await cluster.start('worker');
    const deliveryId = randomUUID();
    const path = `/hook/${deliveryId}`;
    holdFirst.add(path);
    const sent = await sendSigned(api, { event: 'conversation.started', conversation: { id: 'c-2' } }, deliveryId);
    expect(sent.status).toBe(202);
    const { id } = sent.body;

    await eventually(() => sink.requests.some((r) => r.path === path), 120_000);
    expect((await lockedJob(await cluster.db(), 'gateway.action'))?.lastModifiedBy).toBe(first.agendaName);
    await cluster.crash(first);
    expect(actionsOf(await record(id))).toEqual([expect.objectContaining({ status: 'running', attempts: 1 })]);

    // The dead worker's job lock and the attempt's lease both last JOB_LOCK_LIFETIME_MS (30 s here).
    await cluster.start('worker');
    const done = await eventually(async () => {
      const d = await record(id);
      return actionsOf(d)[0]?.status === 'succeeded' && d;
    }, 300_000, 1000);
    expect(actionsOf(done)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);
    const received = sink.requests.filter((r) => r.path === path);
    expect(received).toHaveLength(2);
    expect(received[1]!.raw.equals(received[0]!.raw)).toBe(true);
  });
});
