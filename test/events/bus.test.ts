// The event bus (src/events/service.ts): events emitted together are stored in one insert and
// marked dispatched in batches afterwards; each emit still answers for its own event.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { EventModel, type StoredEvent } from '../../src/events/model.ts';

describe('event bus', () => {
  const rt = useTestRuntime();

  it('stores every event of concurrent emits once, hands each to subscribers once and marks them dispatched', async () => {
    const bus = rt.runtime.ctx.events;
    const seen: string[] = [];
    bus.subscribe(async (event) => void (event.botId === 'bus-bot' && seen.push(event.id)));
    const emitted = await Promise.all(
      Array.from({ length: 20 }, (_, i) => bus.emit({ type: 'conversation.started', teamId: 'bus-team', botId: 'bus-bot', payload: { n: i } })),
    );
    const ids = emitted.map((e) => e.id);
    expect(new Set(ids).size).toBe(20);
    expect(emitted.map((e) => (e.payload as { n: number }).n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([...seen].sort()).toEqual([...ids].sort());
    await bus.flush();
    const stored = await EventModel.find({ botId: 'bus-bot' }).lean<StoredEvent[]>();
    expect(stored.map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(stored.every((e) => e.dispatchedAt instanceof Date)).toBe(true);
  });

  it('fails only the emit whose event is invalid', async () => {
    const bus = rt.runtime.ctx.events;
    const results = await Promise.allSettled([
      bus.emit({ type: 'conversation.started', teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
      bus.emit({ type: 'no.such.type' as never, teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
      bus.emit({ type: 'conversation.escalated', teamId: 'bus-team', botId: 'bus-bot-2', payload: {} }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await EventModel.find({ botId: 'bus-bot-2' }).lean<StoredEvent[]>()).map((e) => e.type).sort()).toEqual(['conversation.escalated', 'conversation.started']);
  });
});
