// Time-ordered ids (conversations, rows, deliveries): valid UUIDv7 strings whose text order is their creation order.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedId } from '../../src/clock.ts';

describe('timeOrderedId', () => {
  it('gives UUIDv7 strings the API accepts, in creation order even within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => timeOrderedId(1_700_000_000_000 + Math.floor(i / 2500)));
    for (const id of ids.slice(0, 50)) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(z.string().uuid().safeParse(id).success).toBe(true);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps order when the clock steps back', () => {
    const later = timeOrderedId(2_000_000_000_000);
    const earlierClock = timeOrderedId(1_999_999_999_000);
    expect(earlierClock > later).toBe(true);
  });
});
