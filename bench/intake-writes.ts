// What the gateway intake's writes cost FerretDB per delivery (issue 17, part 2): storing the
// delivery (alone, as at low load, or ten per command), marking it processed as process.job.ts
// does (an updateMany of 20), and the alternative of an "unprocessed" marker inserted with each
// delivery and deleted 20 at a time. FerretDB CPU from /proc (10 ms ticks over 2,000 deliveries);
// the deliveries are written through the real model's indexes. --code ROOT for another tree.
// Last, the intake's own group insert fed at 200/s, without and with its gathering window
// (gateway/state.ts), with the insert commands it sent per delivery (session 29).
//
//   node --import tsx bench/intake-writes.ts [--code ROOT]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { processTreeCpuMs } from './lib/cpu.ts';
import { paced } from './lib/load.ts';

const at = process.argv.indexOf('--code');
const root = path.resolve(at > 0 ? process.argv[at + 1]! : path.join(import.meta.dirname, '..'));
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const { GatewayDeliveryModel } = await import(`${root}/src/gateway/model.ts`);
const { GroupInsert } = await import(`${root}/src/db/groupInsert.ts`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-intake-writes-'));
const db = await startFerretDb({ dataDir: dir, database: 'writes' });
await mongoose.connect(`${db.uri}?monitorCommands=true`);
let insertCommands = 0;
mongoose.connection.getClient().on('commandStarted', (e) => void (e.commandName === 'insert' && insertCommands++));
await GatewayDeliveryModel.createIndexes();
const deliveries = GatewayDeliveryModel.collection;
const markers = mongoose.connection.db!.collection<{ _id: string; sweptAt: Date; run: number }>('unprocessed');
await markers.createIndex({ sweptAt: 1 });

const N = 2000;
const now = new Date();
// As intake.ts stores one (the headers of a Node fetch, a 184-byte body).
const delivery = () => {
  const id = randomUUID();
  return {
    _id: id, id, source: 'relay', deliveryId: randomUUID(), event: 'conversation.started', test: false, signed: { deliveryId: true, event: true, test: false },
    headers: { host: '127.0.0.1:35349', connection: 'keep-alive', 'content-type': 'application/json', 'x-service-signature': `sha256=${'c2'.repeat(32)}`, accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node', 'accept-encoding': 'gzip, deflate', 'content-length': '184' },
    rawBody: Buffer.from('x'.repeat(184)), receivedAt: now, run: 0, processedRun: -1, processedAt: null, sweptAt: now,
  };
};
const ids: string[] = [];
process.stdout.write(`bench/intake-writes.ts: code ${root}; load average before ${os.loadavg()[0]!.toFixed(1)}\n| Write | FerretDB CPU ms per delivery |\n| --- | --- |\n`);
async function measure(name: string, write: () => Promise<void>) {
  const before = processTreeCpuMs(db.process.pid);
  await write();
  process.stdout.write(`| ${name} | ${((processTreeCpuMs(db.process.pid) - before) / N).toFixed(3)} |\n`);
}
await measure('store, one per insert', async () => {
  for (let i = 0; i < N; i++) {
    const d = delivery();
    ids.push(d.id);
    await deliveries.insertOne(d as never);
  }
});
await measure('store, ten per insert', async () => {
  for (let i = 0; i < N / 10; i++) {
    const batch = Array.from({ length: 10 }, delivery);
    ids.push(...batch.map((d) => d.id));
    await deliveries.insertMany(batch as never[]);
  }
});
await measure('mark processed, updateMany of 20 (process.job.ts)', async () => {
  for (let i = 0; i < N; i += 20) await deliveries.updateMany({ id: { $in: ids.slice(i, i + 20) } }, { $max: { processedRun: 0 }, $set: { processedAt: new Date() } });
});
await measure('"unprocessed" marker, one per insert', async () => {
  for (let i = 0; i < N; i++) await markers.insertOne({ _id: ids[i]!, sweptAt: now, run: 0 });
});
await measure('"unprocessed" marker, deleteMany of 20', async () => {
  for (let i = 0; i < N; i += 20) await markers.deleteMany({ _id: { $in: ids.slice(i, i + 20) } });
});
for (const gatherMs of [0, 10, 0, 10]) {
  const group = new GroupInsert(deliveries, { gatherMs });
  insertCommands = 0;
  await measure(`store at 200/s through the intake's group insert, gatherMs ${gatherMs}`, () => paced(N, 200, () => group.insert(delivery())));
  process.stdout.write(`|   insert commands per delivery | ${(insertCommands / N).toFixed(2)} |\n`);
}
process.stdout.write(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
await mongoose.disconnect();
await db.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
