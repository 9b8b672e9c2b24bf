// Outgoing webhooks, no head-of-line blocking: one hook whose endpoint never answers
// (each attempt runs to the 10 s timeout, so its lane stays saturated) and nine hooks whose sink
// answers 200 at once, all on the same events. Reported: the nine fast hooks' enqueue-to-first-
// attempt (delivery created -> attempt 1's request started, from its result row) in three phases
// of the same run, at the same steady event rate:
//   fast only   the slow hook disabled: the baseline
//   lanes       the slow hook on with the default lane (10 in flight of the process's 64 slots)
//   no lanes    every hook allowed all 64 slots: the slow hook takes them in turn
// Loopback only, bounded in time.
import http from 'node:http';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { provisionTenant } from '../src/platform/service.ts';
import { createWebhook, setWebhookEnabled, updateWebhook } from '../src/webhooks/service.ts';
import { AttemptResultModel, DeliveryModel } from '../src/webhooks/model.ts';
import { trusted } from '../src/db/connection.ts';
import { paced, percentile } from './lib/load.ts';

const FAST_HOOKS = 9;
const RATE = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const DEADLINE_MS = 90_000;
const progress = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

// Fast receiver in its own process (bench/lib/sink.ts); the hanging one here, holding every request.
const sinkProcess = fork(fileURLToPath(new URL('./lib/sink.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
process.on('exit', () => sinkProcess.kill());
const fastUrl = await new Promise<string>((resolve) => sinkProcess.once('message', (m) => resolve((m as { url: string }).url)));
let hang = true;
const held = new Set<http.ServerResponse>();
const slowServer = http.createServer((req, res) => {
  req.resume();
  if (hang) held.add(res);
  else res.writeHead(200).end('ok');
});
await new Promise<void>((r) => slowServer.listen(0, '127.0.0.1', r));
const slowUrl = `http://127.0.0.1:${(slowServer.address() as { port: number }).port}/slow`;

progress('starting runtime');
const bench = await startBenchRuntime({ env: { JOB_PROCESS_EVERY_MS: '1000' } });
const ctx = bench.runtime.ctx;
const tenant = await provisionTenant({ team: 'bench', bot: 'bench' });
const fastIds: string[] = [];
for (let i = 0; i < FAST_HOOKS; i++) {
  const { webhook } = await createWebhook(ctx, tenant.botId, { type: 'conversation.started', url: fastUrl });
  await setWebhookEnabled(tenant.botId, webhook.id, true);
  fastIds.push(webhook.id);
}
// One attempt only: its timeouts must not come back as retries in a later phase.
const { webhook: slowHook } = await createWebhook(ctx, tenant.botId, { type: 'conversation.started', url: slowUrl, retryDelaysSeconds: [] });

const payload = () => ({
  event: 'conversation.started',
  timestamp: new Date().toISOString(),
  conversation: { id: crypto.randomUUID(), botId: tenant.botId, botName: 'bench', channelType: 'api', createdAt: new Date().toISOString() },
});

/** Emits RATE events a second for SECONDS; returns the fast hooks' enqueue-to-first-attempt latencies, sorted. */
async function phase(name: string): Promise<number[]> {
  progress(name);
  const since = new Date();
  const events = RATE * SECONDS;
  await paced(events, RATE, () => ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: payload() }));
  const expected = events * FAST_HOOKS;
  const deadline = Date.now() + DEADLINE_MS;
  let deliveries: Array<{ id: string; createdAt: Date }> = [];
  let starts = new Map<string, number>();
  for (;;) {
    deliveries = await DeliveryModel.find({ webhookId: trusted({ $in: fastIds }), createdAt: trusted({ $gte: since }) }, { id: 1, createdAt: 1 }).lean();
    const results = await AttemptResultModel.find({ number: 1, finishedAt: trusted({ $gte: since }) }, { deliveryId: 1, finishedAt: 1, durationMs: 1 }).lean<
      Array<{ deliveryId: string; finishedAt: Date; durationMs: number }>
    >();
    starts = new Map(results.map((r) => [r.deliveryId, r.finishedAt.getTime() - r.durationMs]));
    if (deliveries.length >= expected && deliveries.every((d) => starts.has(d.id))) break;
    if (Date.now() > deadline) throw new Error(`${name}: ${deliveries.filter((d) => starts.has(d.id)).length} of ${expected} fast first attempts recorded in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return deliveries.map((d) => starts.get(d.id)! - d.createdAt.getTime()).sort((a, b) => a - b);
}

/** Lets the slow endpoint answer, drops what it held, and waits until the process has nothing in flight. */
async function releaseSlow(): Promise<void> {
  hang = false;
  for (const res of held) res.writeHead(200).end('ok');
  held.clear();
  const s = (bench.runtime.modules.find((m) => m.name === 'webhooks') as unknown as { state(): { dispatcher: { idle(ms: number): Promise<void> } } }).state();
  await s.dispatcher.idle(60_000);
  hang = true;
}

// Warm-up: connections, JIT.
await phase('warm-up (fast only)');
const fastOnly = await phase('fast only');
await setWebhookEnabled(tenant.botId, slowHook.id, true);
const lanes = await phase('lanes: slow hook on, default lane');
const slowHeld = held.size;
await releaseSlow();
for (const id of [...fastIds, slowHook.id]) await updateWebhook(ctx, tenant.botId, id, { concurrency: 64 });
const noLanes = await phase('no lanes: every hook may take all 64 slots');
const slowHeldBefore = held.size;
await releaseSlow();

const row = (name: string, l: number[]) => `${name}: fast hooks' enqueue-to-first-attempt p50 ${percentile(l, 50).toFixed(1)} ms, p99 ${percentile(l, 99).toFixed(1)} ms, max ${l.at(-1)!.toFixed(1)} ms (${l.length} deliveries)`;
const lines = [
  `machine: ${machineLine()}, load average ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')}`,
  `${RATE} events/s for ${SECONDS} s to ${FAST_HOOKS} fast hooks (+1 hook whose endpoint never answers, 10 s timeout, in the last two phases)`,
  row('fast only (baseline)', fastOnly),
  row(`lanes (slow endpoint received ${slowHeld} requests, none answered)`, lanes),
  row(`no lanes (slow endpoint received ${slowHeldBefore} requests, none answered)`, noLanes),
  `ratio p50 lanes/baseline: ${(percentile(lanes, 50) / Math.max(0.1, percentile(fastOnly, 50))).toFixed(2)}; no lanes/baseline: ${(percentile(noLanes, 50) / Math.max(0.1, percentile(fastOnly, 50))).toFixed(2)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);

await bench.close();
slowServer.closeAllConnections();
slowServer.close();
await new Promise<void>((r) => {
  sinkProcess.once('exit', () => r());
  sinkProcess.send({ close: true });
});
