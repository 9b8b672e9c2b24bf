// Lookups by `_id` alone (src/db/byId.ts): ownership checked in the process.
import { describe, expect, it } from 'vitest';
import mongoose, { Schema } from 'mongoose';
import { findOwned, nameUuid } from '../../src/db/byId.ts';
import { useTestRuntime } from '../helpers/harness.ts';

const Owned = mongoose.model('ByIdOwned', new Schema({ _id: String, botId: String, n: Number }, { versionKey: false }));

describe('lookups by _id', () => {
  useTestRuntime();

  it('finds a document only for its owner, and nothing for a non-string or operator id', async () => {
    await Owned.create({ _id: 'ds-1', botId: 'bot-a', n: 1 });
    expect(await findOwned(Owned, 'ds-1', { botId: 'bot-a' })).toEqual({ _id: 'ds-1', botId: 'bot-a', n: 1 });
    expect(await findOwned(Owned, 'ds-1', { botId: 'bot-b' })).toBeNull();
    expect(await findOwned(Owned, 'ds-2', { botId: 'bot-a' })).toBeNull();
    expect(await findOwned(Owned, { $ne: null }, { botId: 'bot-a' })).toBeNull();
    expect(await findOwned(Owned, ['ds-1'], { botId: 'bot-a' })).toBeNull();
  });

  it('derives the same UUID from the same name and different ones from different names', () => {
    const a = nameUuid('delivery:0:rule:0');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameUuid('delivery:0:rule:0')).toBe(a);
    expect(nameUuid('delivery:0:rule:1')).not.toBe(a);
  });
});
