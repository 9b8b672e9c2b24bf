// The database stops while signed deliveries keep arriving at the gateway of real api and worker
// processes: every request is answered (202 before and after, 503 while it is down; none hangs,
// none gets a 500), neither process dies, and after the database returns every delivery that was
// answered 202 has its action run. Extends db-outage.test.ts (one in-process runtime, no load).
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { startSink, type Sink } from '../webhooks/sink.ts';
import { adminApi, eventually, relayCluster, type Relay } from './support/cluster.ts';

const SECRET = 'reliability-outage-secret-0123456789';
const DATABASE = 'outage_load';
/** A request not answered within this is hung: the outage answer must come from bounded timeouts. */
const ANSWER_WITHIN_MS = 30_000;
const SENDERS = 3;

type Phase = 'before' | 'during' | 'after';
interface Sent {
  deliveryId: string;
  /** The phase when the request was sent, and when its answer came. */
  phase: Phase;
  answeredIn?: Phase;
  status: number | 'hung' | 'network';
  code?: string;
  /** The gateway's id of an accepted delivery. */
  id?: string;
}

// Slow and load-sensitive (7 minutes or more): on a two-core machine that also runs the rest of the
// suite, FerretDB drains the backlog so slowly that jobs outlive their locks and are handed out
// again, and the drain outlasts any fair bound (docs/FERRETDB.md, "Recovering from an outage under
// load"). It passes run alone; RELAY_SLOW_TESTS=1 includes it in `npm test`.
describe.skipIf(!process.env.RELAY_SLOW_TESTS)('a database outage under gateway load, across processes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-outage-load-'));
  let db: EmbeddedDb;
  let sink: Sink;
  let cluster: ReturnType<typeof relayCluster>;
  let api: Relay;
  let worker: Relay;

  beforeAll(async () => {
    db = await startFerretDb({ dataDir: path.join(dir, 'db'), database: DATABASE });
    sink = await startSink();
    const files = gatewayFiles(
      { sources: { relay: { secrets: [SECRET] } }, vars: { sink: sink.url } },
      { 'notify.json': { name: 'notify', actions: [{ type: 'http', url: "vars.sink & '/hook/' & deliveryId", body: 'payload' }] } },
    );
    // Nothing is killed here, so the default lock lifetime (60 s), not the crash tests' 30 s floor.
    cluster = relayCluster({ MONGODB_URI: db.uri, JOB_PROCESS_EVERY_MS: '200', JOB_LOCK_LIFETIME_MS: '60000', ...files.env });
    [api, worker] = await Promise.all([cluster.start('api'), cluster.start('worker')]);
  });
  afterAll(async () => {
    await cluster?.stopAll();
    await db?.stop();
    await sink?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function send(phase: () => Phase): Promise<Sent> {
    const deliveryId = randomUUID();
    const body = JSON.stringify({ event: 'conversation.started', conversation: { id: deliveryId }, deliveryId });
    const at = phase();
    try {
      const res = await fetch(`${api.url}/gateway/relay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` },
        body,
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      const json = (await res.json().catch(() => ({}))) as { code?: string; id?: string };
      return { deliveryId, phase: at, answeredIn: phase(), status: res.status, code: json.code, id: json.id };
    } catch (err) {
      return { deliveryId, phase: at, status: (err as Error).name === 'TimeoutError' ? 'hung' : 'network' };
    }
  }

  it('answers every delivery, 503 while the database is down, and loses none it accepted', { timeout: 600_000 }, async () => {
    let phase: Phase = 'before';
    let running = true;
    const results: Sent[] = [];
    const senders = Array.from({ length: SENDERS }, async () => {
      while (running) results.push(await send(() => phase));
    });
    const count = (p: Phase, status: number) => results.filter((r) => r.phase === p && r.status === status).length;

    await eventually(() => count('before', 202) >= 20, 120_000);
    await db.stop();
    phase = 'during';
    await eventually(() => count('during', 503) >= 20, 120_000);
    expect(api.alive() && worker.alive()).toBe(true);

    db = await startFerretDb({ dataDir: path.join(dir, 'db'), port: db.port, database: DATABASE });
    phase = 'after';
    await eventually(() => count('after', 202) >= 20, 120_000);
    running = false;
    await Promise.all(senders);

    // Every request got an answer; the only answers are "accepted" and "unavailable, retry".
    expect(results.filter((r) => r.status === 'hung' || r.status === 'network')).toEqual([]);
    expect(results.filter((r) => r.status !== 202 && r.status !== 503)).toEqual([]);
    expect(results.filter((r) => r.status === 503 && r.code !== 'database_unavailable')).toEqual([]);
    // Sent and answered while the database was stopped: refused, every one.
    const whileDown = results.filter((r) => r.phase === 'during' && r.answeredIn === 'during');
    expect(whileDown.length).toBeGreaterThanOrEqual(20);
    expect(whileDown.filter((r) => r.status !== 503)).toEqual([]);

    // Every accepted delivery's action reaches the receiver, including those accepted just before
    // the stop (their enqueue may have failed: the gateway sweep picks them up after 2 minutes).
    const accepted = results.filter((r) => r.status === 202);
    const missing = () => {
      const reached = new Set(sink.requests.map((r) => r.path));
      return accepted.filter((r) => !reached.has(`/hook/${r.deliveryId}`));
    };
    await eventually(() => missing().length === 0, 400_000, 1000).catch(() => undefined);
    const lost = await Promise.all(
      missing().map(async (r) => {
        const d = (await adminApi(api)('GET', `/gateway/deliveries/${r.id}`)).body.delivery;
        return { phase: r.phase, answeredIn: r.answeredIn, found: Boolean(d), processedAt: d?.processedAt, actions: d?.rules?.flatMap((x: { actions: unknown[] }) => x.actions) };
      }),
    );
    // On failure, show the sweep's own job: it is what should have picked the stragglers up.
    if (lost.length) console.error('gateway.sweep job:', JSON.stringify(await (await cluster.db()).collection('agendaJobs').find({ name: 'gateway.sweep' }).toArray()));
    expect(lost).toEqual([]);
    expect(api.alive() && worker.alive()).toBe(true);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
  });
});
