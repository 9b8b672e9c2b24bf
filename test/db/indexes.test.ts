// Indexes at start (src/db/connection.ts, ensureIndexes): an upgraded install keeps no index its
// schemas stopped declaring, and indexes of collections Relay has no model for (Agenda's) stay.
import { describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { ensureIndexes } from '../../src/db/connection.ts';
import { DeliveryModel } from '../../src/webhooks/model.ts';
import { useTestRuntime } from '../helpers/harness.ts';

const names = async (collection: string) => (await mongoose.connection.db!.collection(collection).listIndexes().toArray()).map((i) => i.name as string).sort();

describe('indexes at start', () => {
  useTestRuntime({ worker: false });

  it('drops an index an earlier version declared and keeps the declared ones and Agenda’s', async () => {
    const deliveries = DeliveryModel.collection.collectionName;
    const declared = await names(deliveries);
    // As an earlier layout left them: one index no schema declares any more, one of Agenda's own.
    await mongoose.connection.db!.collection(deliveries).createIndex({ botId: 1, createdAt: 1 }, { name: 'botId_1_createdAt_1' });
    await mongoose.connection.db!.collection('agendaJobs').createIndex({ relayOld: 1 }, { name: 'relayOld_1' });
    const agenda = await names('agendaJobs');
    expect(await names(deliveries)).toContain('botId_1_createdAt_1');

    expect(await ensureIndexes()).toEqual([`${deliveries}.botId_1_createdAt_1`]);
    expect(await names(deliveries)).toEqual(declared);
    expect(await names('agendaJobs')).toEqual(agenda);
  });

  it('drops nothing on a database whose indexes are the declared ones', async () => {
    expect(await ensureIndexes()).toEqual([]);
  });
});
