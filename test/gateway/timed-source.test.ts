// A `relay` source that has sent X-Relay-Signature must keep sending it (docs/SECURITY.md, G1). A
// source that never sends it must not cost a database read per delivery: the record's "not yet"
// is trusted for TIMED_RECHECK_MS, and a record written by another instance is honoured after it.
import { describe, expect, it } from 'vitest';
import type { CommandStartedEvent } from 'mongodb';
import type { Clock } from '../../src/clock.ts';
import { TimedSourceModel } from '../../src/gateway/model.ts';
import { TIMED_RECHECK_MS } from '../../src/gateway/schemes/relay.ts';
import { useTestRuntime } from '../helpers/harness.ts';
import { watchCommands } from '../helpers/dbReads.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'timed-source-secret-0123456789';
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] } } }, {});

/** The gateway's clock, held still while the deliveries below are sent, so no real time passes for it. */
let frozen = new Date();
const clock: Clock = { now: () => new Date(frozen) };

describe('the downgrade check of a relay source that never sent X-Relay-Signature', () => {
  const rt = useTestRuntime({ env: files.env, clock, monitorCommands: true, ...modulesWithGateway() });

  it('reads the record once a second, not once a delivery, and refuses after another instance recorded the source as timed', async () => {
    let reads = 0;
    const count = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command.find === TimedSourceModel.collection.collectionName) reads++;
    };
    await watchCommands(async () => {
      frozen = new Date();
      for (let i = 0; i < 5; i++) {
        const res = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: `c-${i}` } });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
      }
      expect(reads).toBe(1);

      // Another instance accepts the source's first timed delivery and writes the record.
      await TimedSourceModel.collection.insertOne({ _id: 'relay', since: frozen } as never);
      const inWindow = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: 'c-window' } });
      expect(inWindow.status).toBe(202);
      expect(reads).toBe(1);

      frozen = new Date(frozen.getTime() + TIMED_RECHECK_MS);
      const after = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: 'c-after' } });
      expect([after.status, after.body.code]).toEqual([401, 'invalid_signature']);
      expect(after.body.message).toMatch(/X-Relay-Signature is missing/);
      expect(reads).toBe(2);

      // Known here now: refused without asking again.
      const again = await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started', conversation: { id: 'c-again' } });
      expect(again.status).toBe(401);
      expect(reads).toBe(2);
    }, count);
  });
});
