// Issue 39, hook limits across the fleet: a hook's `concurrency` and `ratePerSecond` hold across
// every process on the database, not per process. Two senders share one database here: the test
// runtime and a second webhooks instance beside it (its own event bus, fan-out, dispatcher and
// lanes, as a second api instance has), both sending first attempts to a real sink that counts
// the requests it has open. Per-process lanes let each send up to the limit (4 in flight for a cap
// of 2, 4 signed in one second for a rate of 2). The clock is injected: the rate is checked by the
// second each request was signed in, and a dead holder's slot frees once the clock passes its lease.
import mongoose from 'mongoose';
import type { CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { EventBus } from '../../src/events/service.ts';
import { createWebhooksState, type WebhooksState } from '../../src/webhooks/state.ts';
import { hookLimits } from '../../src/webhooks/fleetLimits.ts';
import { startSink, type Sink } from './sink.ts';
import { useWebhooksRuntime } from './runtime.ts';

let frozen: number | null = null;
const clock = { now: () => new Date(frozen ?? Date.now()) };
/** The outbound timeout here; a slot's lease is 5 s above it. */
const TIMEOUT_MS = 2_000;

describe('hook limits across two sending instances', () => {
  const { rt } = useWebhooksRuntime({ retryDelaysMs: [10] }, { clock, monitorCommands: true, env: { OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) } });
  let sink: Sink;
  let tenant: Tenant;
  let second: { bus: EventBus; state: WebhooksState };
  // Requests open at the sink right now, per path, and the most seen at once.
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  const hold = new Map<string, () => Promise<void>>();

  beforeAll(async () => {
    sink = await startSink(async (req) => {
      open.set(req.path, (open.get(req.path) ?? 0) + 1);
      most.set(req.path, Math.max(most.get(req.path) ?? 0, open.get(req.path)!));
      await hold.get(req.path)?.();
      open.set(req.path, open.get(req.path)! - 1);
      return { status: 200 };
    });
    tenant = await createTenant({ bot: 'Fleet bot' });
    const bus = new EventBus(clock, rt.runtime.ctx.logger);
    const state = createWebhooksState({ ...rt.runtime.ctx, events: bus }, { retryDelaysMs: [10], jitterRatio: 0 });
    bus.subscribe(async (event) => state.dispatcher.dispatch(await state.fanOut.add(event)));
    second = { bus, state };
  });
  afterAll(async () => {
    await second?.state.dispatcher.idle(5_000);
    await second?.state.dispatcher.close();
    await second?.state.outbound.close();
    await sink?.close();
  });

  /** A hook of its own type (so each test's events reach only its hook), enabled, at `path`. */
  async function hook(type: string, path: string, limits: Record<string, unknown>) {
    const res = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type, url: `${sink.url}${path}`, retryDelaysSeconds: [], ...limits }).expect(201);
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${res.body.webhook.id}/enabled`, { enabled: true }).expect(200);
    return res.body.webhook.id as string;
  }
  const emit = (bus: EventBus, type: 'conversation.started' | 'conversation.claimed' | 'conversation.released') =>
    bus.emit({ teamId: tenant.teamId, botId: tenant.botId, type, payload: { event: type, conversation: { id: crypto.randomUUID() } } });
  const at = (path: string) => sink.requests.filter((r) => r.path === path);
  /** The second (epoch seconds) a request was signed in: `t=` of X-Relay-Signature. */
  const signedIn = (req: { headers: Record<string, unknown> }) => Number(/t=(\d+)/.exec(String(req.headers['x-relay-signature']))![1]);

  it('never has more than the hook\'s concurrency in flight at its endpoint, whichever instance sends', async () => {
    await hook('conversation.started', '/capped', { concurrency: 2 });
    hold.set('/capped', () => new Promise((r) => setTimeout(r, 50)));
    const events = [];
    for (let i = 0; i < 10; i++) events.push(emit(rt.runtime.ctx.events, 'conversation.started'), emit(second.bus, 'conversation.started'));
    await Promise.all(events);
    await waitFor(() => at('/capped').length === 20 && open.get('/capped') === 0, 60_000);
    expect(most.get('/capped')).toBeLessThanOrEqual(2);
  });

  it('starts at most ratePerSecond a second across both instances, on an injected clock', async () => {
    // Frozen mid-second: nothing moves to the next second unless the test moves it.
    frozen = Math.floor(Date.now() / 1000) * 1000 + 500;
    try {
      await hook('conversation.claimed', '/paced', { ratePerSecond: 2 });
      for (let i = 0; i < 3; i++) await Promise.all([emit(rt.runtime.ctx.events, 'conversation.claimed'), emit(second.bus, 'conversation.claimed')]);
      for (let seconds = 1; at('/paced').length < 6; seconds++) {
        await waitFor(() => at('/paced').length >= Math.min(6, 2 * seconds), 30_000);
        frozen += 1000;
      }
    } finally {
      frozen = null;
    }
    const perSecond = new Map<number, number>();
    for (const req of at('/paced')) perSecond.set(signedIn(req), (perSecond.get(signedIn(req)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(2);
    expect(at('/paced')).toHaveLength(6);
  });

  it('frees a slot whose holder died once its lease runs out, and not before', async () => {
    const id = await hook('conversation.released', '/orphaned', { concurrency: 1 });
    frozen = Date.now();
    const asks: CommandStartedEvent[] = [];
    const seen = (e: CommandStartedEvent) => void (e.commandName === 'findAndModify' && e.command.findAndModify === 'webhooklimits' && asks.push(e));
    mongoose.connection.getClient().on('commandStarted', seen);
    try {
      // What a process killed mid-attempt leaves: the hook's one slot held (its request died with it).
      await hookLimits.ensureSlots(id, 1);
      const expiresAt = frozen + TIMEOUT_MS + 5_000;
      expect(await hookLimits.takeSlots(id, 1, 1, 'killed-process', clock.now(), TIMEOUT_MS + 5_000)).toEqual([0]);
      asks.length = 0;
      await emit(rt.runtime.ctx.events, 'conversation.released');
      // The instance asked for the slot again and again and was refused each time.
      await waitFor(() => asks.length >= 3);
      expect(at('/orphaned')).toHaveLength(0);
      // One millisecond before the lease ends it is still held; at its end the delivery goes out.
      frozen = expiresAt - 1;
      const before = asks.length;
      await waitFor(() => asks.length >= before + 2);
      expect(at('/orphaned')).toHaveLength(0);
      frozen = expiresAt;
      await waitFor(() => at('/orphaned').length === 1);
    } finally {
      mongoose.connection.getClient().off('commandStarted', seen);
      frozen = null;
    }
  });
});
