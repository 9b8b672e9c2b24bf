// Issue 19, "no head-of-line blocking": per-hook lanes. The property holds for every arrival order
// and every interleaving of completions that fast-check generates: however a hook that never
// finishes (an endpoint that hangs to the timeout) and the other hooks' deliveries arrive, no hook
// exceeds its cap, the process never exceeds its slots, each hook's deliveries start in their
// order, a free slot is never left idle while a hook below its cap waits, and every delivery of
// the other hooks starts without waiting for any of the hanging hook's attempts to end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lanes } from '../../src/webhooks/lanes.ts';

const SLOW = 'hook-0';

describe('per-hook lanes', () => {
  it('never lets a hanging hook delay another hook, whatever the order of arrivals and completions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }), // the hanging hook's cap
        fc.integer({ min: 1, max: 10 }), // slots beyond that cap
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 4, maxLength: 4 }), // other hooks' caps
        fc.array(fc.oneof(fc.record({ arrive: fc.integer({ min: 0, max: 4 }) }), fc.record({ complete: fc.nat() })), { maxLength: 200 }),
        (slowCap, extra, caps, steps) => {
          const slots = slowCap + extra;
          const lanes = new Lanes<number>(() => 0);
          const capOf = (hook: string) => (hook === SLOW ? slowCap : caps[Number(hook.slice(5)) - 1]!);
          const running = new Map<string, number[]>();
          const queued = new Map<string, number[]>();
          const started: Array<{ hook: string; item: number }> = [];
          let total = 0;
          let seq = 0;
          const pump = () => {
            while (total < slots) {
              const next = lanes.take();
              if (!next) break;
              const list = running.get(next.key) ?? [];
              list.push(next.item);
              running.set(next.key, list);
              total++;
              started.push({ hook: next.key, item: next.item });
              // Each hook's deliveries start in arrival order.
              expect(queued.get(next.key)!.shift()).toBe(next.item);
            }
            for (const [hook, list] of running) expect(list.length).toBeLessThanOrEqual(capOf(hook));
            expect(total).toBeLessThanOrEqual(slots);
            // Work-conserving: a free slot is never idle while a hook below its cap has work.
            if (total < slots) for (const [hook, q] of queued) if (q.length) expect((running.get(hook) ?? []).length).toBe(capOf(hook));
          };
          const arrive = (hookIndex: number) => {
            const hook = `hook-${hookIndex}`;
            const item = seq++;
            queued.set(hook, [...(queued.get(hook) ?? []), item]);
            lanes.add(hook, item, { concurrency: capOf(hook), ratePerSecond: null });
            pump();
          };
          // Only the other hooks' attempts ever end; the hanging hook's never do.
          const completeOne = (pick: number) => {
            const fast = [...running].filter(([hook, list]) => hook !== SLOW && list.length);
            if (!fast.length) return;
            const [hook, list] = fast[pick % fast.length]!;
            list.shift();
            total--;
            lanes.done(hook);
            pump();
          };
          for (const step of steps) 'arrive' in step ? arrive(step.arrive) : completeOne(step.complete);
          // Let the other hooks finish what they have: all of their deliveries start, with the
          // hanging hook still holding every slot it may.
          for (let i = 0; i < 1000 && [...queued].some(([hook, q]) => hook !== SLOW && q.length); i++) completeOne(i);
          for (const [hook, q] of queued) if (hook !== SLOW) expect(q).toEqual([]);
          expect((running.get(SLOW) ?? []).length).toBe(Math.min(slowCap, started.filter((s) => s.hook === SLOW).length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts at most ratePerSecond a second on a rate-limited lane, on an injected clock', () => {
    let now = 0;
    const lanes = new Lanes<number>(() => now);
    for (let i = 0; i < 6; i++) lanes.add('h', i, { concurrency: 10, ratePerSecond: 2 });
    const startedNow = () => {
      const out: number[] = [];
      for (let next = lanes.take(); next; next = lanes.take()) out.push(next.item);
      return out;
    };
    expect(startedNow()).toEqual([0, 1]); // a full bucket: one second's worth
    expect(lanes.wakeIn()).toBe(500);
    now = 499;
    expect(startedNow()).toEqual([]);
    now = 500;
    expect(startedNow()).toEqual([2]);
    now = 1500;
    expect(startedNow()).toEqual([3, 4]);
    expect(lanes.size).toBe(1);
  });
});
