// Gateway processes killed (SIGKILL) between storing a delivery and finishing its actions: a new
// worker runs the action, and the receiver sees it exactly once when the crash came before the
// request left, and exactly twice (at-least-once: the lost request, then the retry) when the
// crash came while the request was on the wire. Issue 39 "Bounded recovery": the action runs again
// once the dead worker's job lock has run out, not before, and within the bound that implies.
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { startSink, type ReceivedRequest, type Sink } from '../webhooks/sink.ts';
import { adminApi, eventually, lockedJob, QUICK_RECOVERY, QUICK_RECOVERY_ENV, relayCluster, type Relay } from './support/cluster.ts';

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
  /** Paths whose first request the sink holds open forever, with the process to kill when it arrives. */
  const holdFirst = new Map<string, () => Relay>();
  /** When each request reached the sink, and when a kill was sent (this process's clock). */
  const arrivals = new Map<ReceivedRequest, number>();
  let killedAt = 0;

  beforeAll(async () => {
    sink = await startSink((req) => {
      arrivals.set(req, Date.now());
      const victim = holdFirst.get(req.path);
      if (victim && sink.requests.filter((r) => r.path === req.path).length === 1) {
        // At once: the 5 s outbound timeout cannot end the attempt first.
        victim().child.kill('SIGKILL');
        killedAt = Date.now();
        return 'hang';
      }
      return { status: 200, body: 'ok' };
    });
    files = gatewayFiles(
      { sources: { relay: { secrets: [SECRET] } }, vars: { sink: sink.url } },
      { 'notify.json': { name: 'notify', actions: [{ type: 'http', url: "vars.sink & '/hook/' & deliveryId", body: 'payload' }] } },
    );
    cluster = relayCluster({ MONGODB_URI: databaseUri(uniqueDatabaseName()), ...QUICK_RECOVERY_ENV, ...files.env });
    api = await cluster.start('api');
  }, 300_000);
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
    // sweep enqueues the stored delivery after its grace (twice the 15 s lock) instead.
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
    holdFirst.set(path, () => first);
    const sent = await sendSigned(api, { event: 'conversation.started', conversation: { id: 'c-2' } }, deliveryId);
    expect(sent.status).toBe(202);
    const { id } = sent.body;

    await eventually(() => killedAt > 0, 120_000);
    await first.exited;
    // The dead worker's lock stays on the job until it runs out.
    const locked = await lockedJob(await cluster.db(), 'gateway.action');
    expect(locked?.lastModifiedBy).toBe(first.agendaName);
    const lockedAt = locked!.lockedAt.getTime();
    expect(actionsOf(await record(id))).toEqual([expect.objectContaining({ status: 'running', attempts: 1 })]);

    // The dead worker's job lock and the attempt's lease both last JOB_LOCK_LIFETIME_MS (15 s here).
    await cluster.start('worker');
    const readyAt = Date.now();
    const done = await eventually(async () => {
      const d = await record(id);
      return actionsOf(d)[0]?.status === 'succeeded' && d;
    }, 300_000, 1000);
    expect(actionsOf(done)).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);
    const received = sink.requests.filter((r) => r.path === path);
    expect(received).toHaveLength(2);
    expect(received[1]!.raw.equals(received[0]!.raw)).toBe(true);

    // Not before the lock ran out: only its expiry hands a locked job over (the sweep takes only
    // pending actions). Within the bound (the lock, a poll, and a second if the attempt's lease
    // had not quite run out) counted from the lock or from a worker being there, whichever came
    // later; asserted at three times that, the room a loaded machine needs for a late poll or
    // lock query. The lower bound is the exact one.
    const resentAt = arrivals.get(received[1]!)!;
    console.info('recovery of a gateway action lost in a killed worker', { killedAfterLockMs: killedAt - lockedAt, resentAfterLockMs: resentAt - lockedAt, resentAfterReadyMs: resentAt - readyAt });
    expect(resentAt).toBeGreaterThanOrEqual(lockedAt + QUICK_RECOVERY.lockMs);
    expect(resentAt - Math.max(lockedAt, readyAt)).toBeLessThanOrEqual(3 * QUICK_RECOVERY.lockedBoundMs);
  });
});
