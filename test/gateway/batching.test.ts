// What a batch costs the database (issue 17): gateway.process reads, records, enqueues and marks a
// batch with a fixed number of calls however many deliveries it holds, and gateway.action adds one
// call per action (its end) to a fixed number per round. Counted, not timed: the calls mongoose
// sends for the gateway's own collections (Agenda's job writes go through the raw driver).
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { trusted } from '../../src/db/connection.ts';
import { performAction } from '../../src/gateway/action.job.ts';
import { ActionOutcomeModel, GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { performProcess } from '../../src/gateway/process.job.ts';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { eventBody } from './support/signing.ts';

const files = gatewayFiles(
  { sources: { relay: { secrets: ['batching-secret-0123456789'] } } },
  { 'log.json': { name: 'log-started', events: ['conversation.started'], actions: [{ type: 'log', message: "'started ' & deliveryId" }] } },
);

let calls: string[] = [];
function countCalls(): void {
  mongoose.set('debug', (collection: string, method: string) => void calls.push(`${collection}.${method}`));
}

async function storeWaiting(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body, deliveryId } = eventBody({ event: 'conversation.started' });
    const id = randomUUID();
    await GatewayDeliveryModel.create({ id, source: 'relay', deliveryId, event: 'conversation.started', test: false, headers: {}, rawBody: body, receivedAt: new Date() });
    ids.push(id);
  }
  return ids;
}

describe('gateway batches', () => {
  const { gateway, modules } = modulesWithGateway();
  // No worker: the jobs the batches enqueue stay queued, and this test runs them itself.
  const rt = useTestRuntime({ env: files.env, modules, worker: false });
  const view = () => ({ rules: gateway.state().rules.rules, vars: gateway.state().vars });
  const services = () => ({ mailer: gateway.state().mailer, outbound: gateway.state().outbound, sourceOf: () => null });

  beforeAll(async () => {
    await waitFor(() => gateway.state().rules.rules.rules.length === 1);
  });
  afterEach(() => {
    mongoose.set('debug', false);
  });

  /** Processes `count` waiting deliveries as one job; returns the calls it made and its action ids. */
  async function processBatch(count: number): Promise<{ calls: string[]; actions: string[] }> {
    const ids = await storeWaiting(count);
    calls = [];
    countCalls();
    await performProcess(rt.runtime.ctx, view, { deliveries: ids.map((id) => ({ id, run: 0 })) });
    mongoose.set('debug', false);
    const actions = await ActionOutcomeModel.find({ delivery: trusted({ $in: ids }) }, { id: 1 }).lean<Array<{ id: string }>>();
    return { calls, actions: actions.map((a) => a.id) };
  }

  it('processes a batch of 12 deliveries with the same database calls as a batch of 2', async () => {
    const small = await processBatch(2);
    const large = await processBatch(12);
    expect(large.actions).toHaveLength(12);
    // Read the batch, insert rule and action outcomes, mark it processed (the job insert is Agenda's).
    expect(small.calls).toEqual(['gatewayDeliveries.find', 'gatewayRuleOutcomes.insertMany', 'gatewayActionOutcomes.insertMany', 'gatewayDeliveries.updateMany']);
    expect(large.calls).toEqual(small.calls);
    const processed = await GatewayDeliveryModel.countDocuments({ processedAt: null });
    expect(processed).toBe(0);
  });

  it('runs a job of actions with one more call per action, its end, and runs each once', async () => {
    const run = async (actions: string[]) => {
      calls = [];
      countCalls();
      await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: actions });
      mongoose.set('debug', false);
      return calls.length;
    };
    const two = await run((await processBatch(2)).actions);
    const eight = (await processBatch(8)).actions;
    expect(await run(eight)).toBe(two + 6);
    const outcomes = await ActionOutcomeModel.find({ id: trusted({ $in: eight }) }).lean();
    expect(outcomes.map((o) => [o.status, o.attempts])).toEqual(eight.map(() => ['succeeded', 1]));
    // Run again (a duplicate job): nothing is claimed or run twice.
    await performAction(rt.runtime.ctx, services(), [50, 50], { outcomeIds: eight });
    expect((await ActionOutcomeModel.find({ id: trusted({ $in: eight }) }).lean()).every((o) => o.attempts === 1)).toBe(true);
  });
});
