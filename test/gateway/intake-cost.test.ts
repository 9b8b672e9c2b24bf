// What intake costs the database from request to processed (issue 17), counted, not timed: every
// write command the driver sends, Agenda's included. A `log` action is recorded done when planned,
// so a delivery costs its share of the intake's group insert and of its process job, and nothing
// per action: no gateway.action job, no claim, no outcome update.
import { describe, expect, it } from 'vitest';
import type { CommandStartedEvent } from 'mongodb';
import { ActionOutcomeModel, GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { watchCommands } from '../helpers/dbReads.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'intake-cost-secret-0123456789';
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] } } },
  { 'log.json': { name: 'log-started', events: ['conversation.started'], actions: [{ type: 'log', message: "'started ' & payload.conversation.id" }] } },
);
const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);

describe('gateway intake cost', () => {
  const rt = useTestRuntime({ env: files.env, monitorCommands: true, ...modulesWithGateway() });

  it('stores and processes 30 deliveries with a log rule in one write each of the delivery and its body, plus a bounded number per process job', async () => {
    const writes: Record<string, number> = {};
    let agendaJobInserts = 0;
    const count = (e: CommandStartedEvent) => {
      if (!WRITES.has(e.commandName)) return;
      const key = `${e.commandName} ${String(e.command[e.commandName])}`;
      writes[key] = (writes[key] ?? 0) + (e.commandName === 'insert' ? (e.command.documents as unknown[]).length : 1);
      if (key === 'insert agendaJobs') agendaJobInserts++;
    };
    const N = 30;
    const answers = await watchCommands(async () => {
      const sent = await Promise.all(Array.from({ length: N }, (_, i) => sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: `c-${i}` } })));
      await waitFor(async () => (await GatewayDeliveryModel.countDocuments({ processedAt: null })) === 0);
      return sent;
    }, count);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));

    const outcomes = await ActionOutcomeModel.find({}).lean();
    expect(outcomes.map((o) => [o.type, o.status, o.attempts])).toEqual(answers.map(() => ['log', 'succeeded', 1]));
    // Counted in documents for inserts: each delivery, its body, rule outcome and action outcome once.
    expect(writes['insert gatewayDeliveries']).toBe(N);
    expect(writes['insert gatewayDeliveryBodies']).toBe(N);
    expect(writes['insert gatewayRuleOutcomes']).toBe(N);
    expect(writes['insert gatewayActionOutcomes']).toBe(N);
    // Nothing per action after planning.
    expect(writes['insert gatewayActionClaims'] ?? 0).toBe(0);
    expect(writes['update gatewayActionOutcomes'] ?? 0).toBe(0);
    // Each process job (Agenda's insert) adds its mark, and Agenda's run and removal. Agenda's lock
    // queries (findAndModify) poll every name on a timer, so they count time, not work: left out.
    delete writes['findAndModify agendaJobs'];
    const jobs = agendaJobInserts;
    expect(jobs).toBeGreaterThanOrEqual(1);
    expect(writes['update gatewayDeliveries']).toBeLessThanOrEqual(jobs);
    expect((writes['update agendaJobs'] ?? 0) + (writes['delete agendaJobs'] ?? 0)).toBeLessThanOrEqual(3 * jobs);
    const total = Object.values(writes).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(writes)).toBeLessThanOrEqual(4 * N + 5 * jobs);
  });
});
