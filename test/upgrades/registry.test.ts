// The upgrade registry (src/upgrades/registry.ts) with a step registered here only: rows in an old
// shape are rewritten once, recorded, never run twice by two instances starting together, and a
// failure is recorded and tried again at the next start.
import { describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import type { Db } from 'mongodb';
import { useTestRuntime } from '../helpers/harness.ts';
import { checkSteps, runUpgrades, type UpgradeStep } from '../../src/upgrades/registry.ts';

/** A sample step: rows whose `request` is JSON text become a sub-document (expand: readers took both). */
function sampleStep(calls: { n: number }, fail: { times: number } = { times: 0 }): UpgradeStep {
  return {
    name: '1.1.0-001-sample-request-as-document',
    async run(db: Db) {
      calls.n++;
      // Gives the other instance a turn between the claim and the end (no timing: one macrotask).
      await new Promise((resolve) => setImmediate(resolve));
      if (fail.times > 0) {
        fail.times--;
        throw new Error('the database went away');
      }
      const rows = db.collection<{ _id: string; request: unknown }>('upgradeSampleRows');
      for (const row of await rows.find({ request: { $type: 'string' } }).toArray()) {
        await rows.updateOne({ _id: row._id, request: row.request }, { $set: { request: JSON.parse(row.request as string) } });
      }
    },
  };
}

describe('the upgrade registry', () => {
  useTestRuntime({ worker: false });
  const db = () => mongoose.connection.db!;
  const rows = () => db().collection<{ _id: string; request: unknown }>('upgradeSampleRows');
  const reset = async () => {
    await db().collection('upgrades').deleteMany({});
    await db().collection('upgradeClaims').deleteMany({});
    await rows().deleteMany({});
    await rows().insertMany([
      { _id: 'old', request: JSON.stringify({ method: 'POST', url: 'https://example.com/a' }) },
      { _id: 'new', request: { method: 'PUT', url: 'https://example.com/b' } },
    ]);
  };

  it('runs a step once across two instances starting together, records it, and rewrites the old rows', async () => {
    await reset();
    const calls = { n: 0 };
    const step = sampleStep(calls);
    const [a, b] = await Promise.all([runUpgrades(db(), [step], { runner: 'a' }), runUpgrades(db(), [step], { runner: 'b' })]);
    expect(calls.n).toBe(1);
    expect([...a, ...b]).toEqual([step.name]);
    expect(await db().collection('upgrades').findOne({ _id: step.name as never })).toMatchObject({ state: 'done', tries: 1, error: null });
    expect(await rows().find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'new', request: { method: 'PUT', url: 'https://example.com/b' } },
      { _id: 'old', request: { method: 'POST', url: 'https://example.com/a' } },
    ]);
    // A later start finds it recorded and runs nothing.
    expect(await runUpgrades(db(), [step], { runner: 'c' })).toEqual([]);
    expect(calls.n).toBe(1);
  });

  it('records a failure with its reason, holds back the steps after it, and tries it again at the next start', async () => {
    await reset();
    const calls = { n: 0 };
    const step = sampleStep(calls, { times: 1 });
    const later = { n: 0 };
    const next: UpgradeStep = { name: '1.1.0-002-after-the-sample', run: async () => void later.n++ };
    expect(await runUpgrades(db(), [next, step], { runner: 'a' })).toEqual([]);
    expect(await db().collection('upgrades').findOne({ _id: step.name as never })).toMatchObject({ state: 'failed', tries: 1, error: 'the database went away' });
    expect(later.n).toBe(0);
    expect(await rows().findOne({ _id: 'old' })).toMatchObject({ request: expect.any(String) });

    expect(await runUpgrades(db(), [step, next], { runner: 'a' })).toEqual([step.name, next.name]);
    expect(calls.n).toBe(2);
    expect(await db().collection('upgrades').findOne({ _id: step.name as never })).toMatchObject({ state: 'done', tries: 2, error: null });
    expect(await rows().findOne({ _id: 'old' })).toMatchObject({ request: { method: 'POST' } });
  });

  it('lets the next start take over a try whose runner died, once its claim time has passed', async () => {
    await reset();
    const calls = { n: 0 };
    const step = sampleStep(calls);
    const at = new Date('2027-01-01T00:00:00Z');
    // What a runner that died mid-step leaves: its claim of try 1, no record.
    await db().collection('upgradeClaims').insertOne({ _id: `${step.name}#1` as never, step: step.name, runner: 'dead', at });
    expect(await runUpgrades(db(), [step], { runner: 'a', now: () => new Date(at.getTime() + 60_000), claimMs: 600_000 })).toEqual([]);
    expect(calls.n).toBe(0);
    expect(await runUpgrades(db(), [step], { runner: 'a', now: () => new Date(at.getTime() + 700_000), claimMs: 600_000 })).toEqual([]);
    expect(await runUpgrades(db(), [step], { runner: 'a', now: () => new Date(at.getTime() + 700_000), claimMs: 600_000 })).toEqual([step.name]);
    expect(calls.n).toBe(1);
    expect(await db().collection('upgrades').findOne({ _id: step.name as never })).toMatchObject({ state: 'done', tries: 2 });
  });

  it('orders steps by release, then number, and refuses a name without a release or a step registered twice', () => {
    const noop = async () => undefined;
    const names = checkSteps([{ name: '1.10.0-001-b', run: noop }, { name: '1.9.0-002-a', run: noop }, { name: '1.9.0-001-c', run: noop }]).map((s) => s.name);
    expect(names).toEqual(['1.9.0-001-c', '1.9.0-002-a', '1.10.0-001-b']);
    expect(() => checkSteps([{ name: 'move-bodies', run: noop }])).toThrow(/<release>-<nnn>-<what>/);
    expect(() => checkSteps([{ name: '1.1.0-001-a', run: noop }, { name: '1.1.0-001-a', run: noop }])).toThrow(/twice/);
  });
});
