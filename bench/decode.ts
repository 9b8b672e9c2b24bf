// What FerretDB's CPU for a page of 100 documents depends on: the stored shape (issue 17's delivery
// lists). Writes 2,000 documents of each shape into an embedded FerretDB (the webhook and gateway
// deliveries as the services store them, a slim form with only the listed fields, the listed fields
// packed into one string, and `{ _id }` alone), then reads pages of 100 by `_id` and reports
// FerretDB's CPU per page (/proc, 10 ms ticks over --runs pages). --code ROOT starts another tree's
// FerretDB (its patch), for a before and after.
//
//   node --import tsx bench/decode.ts [--code ROOT] [--runs 60]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MongoClient, type Document } from 'mongodb';
import { processTreeCpuMs } from './lib/cpu.ts';
import { stringFlag } from './lib/args.ts';

const root = path.resolve(stringFlag('code', path.join(import.meta.dirname, '..')));
const runs = Number(stringFlag('runs', '60'));
const { startFerretDb } = await import(`${root}/src/db/ferretdb.ts`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-decode-bench-'));
const db = await startFerretDb({ dataDir: dir, database: 'decode' });
const client = await new MongoClient(db.uri).connect();
const now = new Date();

// As the seeds of bench/lists.ts store them (one `log` action, a local sink).
const webhookDelivery = (id: string) => ({
  _id: id, id, eventId: randomUUID(), webhookId: 'h', botId: randomUUID(), event: 'conversation.started',
  request: { method: 'POST', url: 'http://127.0.0.1:35221/hook', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ conversation: { id: randomUUID() }, deliveryId: id }) },
  unresolved: [], status: 'pending', attemptCount: 0, attemptLimit: 5, runAfter: 0, nextAttemptAt: now,
  firstClaim: { startedAt: now, leaseUntil: now }, fresh: true, createdAt: now, finishedAt: null, cancelReason: null,
});
const gatewayDelivery = (id: string) => ({
  _id: id, id, source: 'relay', deliveryId: randomUUID(), event: 'conversation.started', test: false, signed: { deliveryId: true, event: true, test: false },
  headers: { host: '127.0.0.1:35349', connection: 'keep-alive', 'content-type': 'application/json', 'x-service-signature': `sha256=${'c2'.repeat(32)}`, accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node', 'accept-encoding': 'gzip, deflate', 'content-length': '184' },
  rawBody: Buffer.from('x'.repeat(184)), receivedAt: now, run: 0, processedRun: 0, processedAt: now, sweptAt: now,
});
const shapes: Record<string, (id: string) => Document> = {
  'webhook delivery, as stored': webhookDelivery,
  'webhook delivery, listed fields only': (id) => {
    const { botId: _b, fresh: _f, ...listed } = webhookDelivery(id);
    return listed;
  },
  'webhook delivery, packed in one string': (id) => ({ _id: id, webhookId: 'h', listed: JSON.stringify(webhookDelivery(id)) }),
  'gateway delivery, as stored': gatewayDelivery,
  'gateway delivery, listed fields only': (id) => {
    const { headers: _h, rawBody: _r, sweptAt: _s, ...listed } = gatewayDelivery(id);
    return listed;
  },
  'gateway delivery, packed in one string': (id) => {
    const { headers: _h, rawBody: _r, ...listed } = gatewayDelivery(id);
    return { _id: id, listed: JSON.stringify(listed) };
  },
  '{ _id } alone': (id) => ({ _id: id }),
};
process.stdout.write(`bench/decode.ts: code ${root}, ${runs} pages each; load average before ${os.loadavg()[0]!.toFixed(1)}\n| Shape | FerretDB CPU ms per page of 100 |\n| --- | --- |\n`);
for (const [name, make] of Object.entries(shapes)) {
  const collection = client.db('decode').collection(name.replace(/\W+/g, '_'));
  await collection.insertMany(Array.from({ length: 2000 }, (_, i) => make(String(i).padStart(6, '0'))));
  const page = () => collection.find({}).sort({ _id: 1 }).limit(100).toArray();
  await page();
  const before = processTreeCpuMs(db.process.pid);
  for (let i = 0; i < runs; i++) await page();
  process.stdout.write(`| ${name} | ${((processTreeCpuMs(db.process.pid) - before) / runs).toFixed(2)} |\n`);
}
process.stdout.write(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
await client.close();
await db.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
