// What a batch costs the database (issue 17): gateway.process reads, records, enqueues and marks a
// batch with a fixed number of calls however many deliveries it holds, a `log` action is recorded
// done when planned (no job, no claim), and gateway.action adds one call per action (its end) to a
// fixed number per round. Counted, not timed: the commands the driver sends for the gateway's own
// collections (Agenda's job writes are left out here; test/gateway/intake-cost.test.ts counts those too).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { commandsSent } from '../helpers/dbReads.ts';
import { trusted } from '../../src/db/connection.ts';
import { performAction } from '../../src/gateway/action.job.ts';
import { ActionClaimModel, ActionOutcomeModel, GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { performProcess } from '../../src/gateway/process.job.ts';
import { ACTION_JOB } from '../../src/gateway/service.ts';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway, storeWaiting } from './support/runtime.ts';

const files = gatewayFiles(
  { sources: { relay: { secrets: ['batching-secret-0123456789'] } } },
  {
    'log.json': { name: 'log-started', events: ['conversation.started'], actions: [{ type: 'log', message: "'started ' & deliveryId" }] },
    // An action that needs a job of its own (email to DATA_DIR/outbox: no server).
    'mail.json': { name: 'mail-escalated', events: ['conversation.escalated'], actions: [{ type: 'email', to: "'ops@example.com'", subject: "'Escalated'", text: 'deliveryId' }] },
  },
);

/** The commands `fn` sends for the gateway's collections, in order, as `name collection`. */
async function gatewayCalls(fn: () => Promise<unknown>): Promise<string[]> {
  return (await commandsSent(fn, { inOrder: true })).filter((c) => c.split(' ')[1].startsWith('gateway'));
}

describe('gateway batches', () => {
  const { gateway, modules, view, services } = modulesWithGateway();
  // No worker: the jobs the batches enqueue stay queued, and this test runs them itself.
  const rt = useTestRuntime({ env: files.env, modules, worker: false, monitorCommands: true });

  beforeAll(async () => {
    await waitFor(() => gateway.state().rules.rules.rules.length === 2);
  });
  /** Processes `count` waiting deliveries as one job; returns the calls it made and its action ids. */
  async function processBatch(count: number, event = 'conversation.started'): Promise<{ calls: string[]; actions: string[] }> {
    const ids = await storeWaiting(event, count);
    const calls = await gatewayCalls(() => performProcess(rt.runtime.ctx, view, { deliveries: ids.map((id) => ({ id, run: 0 })) }));
    const actions = await ActionOutcomeModel.find({ delivery: trusted({ $in: ids }) }, { _id: 1 }).lean<Array<{ _id: string }>>();
    return { calls, actions: actions.map((a) => a._id) };
  }

  const queuedActionJobs = () => mongoose.connection.db!.collection('agendaJobs').countDocuments({ name: ACTION_JOB });

  it('processes a batch of 12 deliveries with the same database calls as a batch of 2, a log action done when planned', async () => {
    const small = await processBatch(2);
    const large = await processBatch(12);
    expect(large.actions).toHaveLength(12);
    // Read the batch and its bodies, insert rule and action outcomes, mark it processed: no claim, no outcome update.
    expect(small.calls).toEqual(['find gatewayDeliveries', 'find gatewayDeliveryBodies', 'insert gatewayRuleOutcomes', 'insert gatewayActionOutcomes', 'update gatewayDeliveries']);
    expect(large.calls).toEqual(small.calls);
    const processed = await GatewayDeliveryModel.countDocuments({ processedAt: null });
    expect(processed).toBe(0);
    const outcomes = await ActionOutcomeModel.find({ _id: trusted({ $in: large.actions }) }).lean();
    expect(outcomes.map((o) => [o.status, o.attempts, (o.result as { message: string }).message.startsWith('started ')])).toEqual(large.actions.map(() => ['succeeded', 1, true]));
    expect(await ActionClaimModel.countDocuments({ outcome: trusted({ $in: large.actions }) })).toBe(0);
    expect(await queuedActionJobs()).toBe(0);
  });

  it('plans a batch again after a crash before its mark without a second record or a job for its log actions', async () => {
    const { actions } = await processBatch(3);
    const first = await ActionOutcomeModel.find({ _id: trusted({ $in: actions }) }).lean();
    const ids = [...new Set(first.map((o) => o.delivery))];
    // As if the worker died after recording the outcomes and before marking the batch processed.
    await GatewayDeliveryModel.updateMany({ id: trusted({ $in: ids }) }, { $set: { processedRun: -1, processedAt: null } });
    await performProcess(rt.runtime.ctx, view, { deliveries: ids.map((id) => ({ id, run: 0 })) });
    expect(await ActionOutcomeModel.find({ _id: trusted({ $in: actions }) }).lean()).toEqual(first);
    expect(await queuedActionJobs()).toBe(0);
    expect(await GatewayDeliveryModel.countDocuments({ id: trusted({ $in: ids }), processedAt: null })).toBe(0);
  });

  it('runs a job of actions with one more call per action, its end, and runs each once', async () => {
    const run = async (actions: string[]) => {
      return (await gatewayCalls(() => performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: actions }))).length;
    };
    const two = await run((await processBatch(2, 'conversation.escalated')).actions);
    const eight = (await processBatch(8, 'conversation.escalated')).actions;
    expect(await run(eight)).toBe(two + 6);
    const outcomes = await ActionOutcomeModel.find({ _id: trusted({ $in: eight }) }).lean();
    expect(outcomes.map((o) => [o.type, o.status, o.attempts])).toEqual(eight.map(() => ['email', 'succeeded', 1]));
    // Run again (a duplicate job): nothing is claimed or run twice.
    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: eight });
    expect((await ActionOutcomeModel.find({ _id: trusted({ $in: eight }) }).lean()).every((o) => o.attempts === 1)).toBe(true);
  });

  it('lets the event loop turn while it plans a long batch, so the process answers requests between its deliveries', async () => {
    const ids = await storeWaiting('conversation.started', 100);
    // The rule book is asked once per delivery planned: a count of how far planning has got.
    let planned = 0;
    const counting = () => (planned++, view());
    // One callback per turn of the event loop, noting how far planning had got at that turn.
    const seen = new Set<number>();
    let ticking = true;
    const tick = () => {
      seen.add(planned);
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await performProcess(rt.runtime.ctx, counting, { deliveries: ids.map((id) => ({ id, run: 0 })) });
    ticking = false;
    expect(planned).toBe(100);
    // Without a turn inside planning, every turn sees none or all of the batch planned.
    expect([...seen].filter((n) => n > 0 && n < 100).length).toBeGreaterThanOrEqual(3);
  });
});
