// What a gateway delivery list page reads (service.ts, outcomes.ts): unfiltered, the rule and
// action outcomes come by their delivery key's range beside the page, and only those of deliveries
// the range does not hold whole (or marked processed a moment ago) are read by id after it.
// Whatever it reads, a page shows what reading every outcome by id shows.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { readsSent, watchCommands } from '../helpers/dbReads.ts';
import { timeOrderedId, type Clock } from '../../src/clock.ts';
import { trusted } from '../../src/db/connection.ts';
import { GatewayDeliveryModel, type GatewayDelivery } from '../../src/gateway/model.ts';
import { withOutcomes } from '../../src/gateway/outcomes.ts';
import { presentDelivery } from '../../src/gateway/presenters.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'list-reads-secret-0123456789';
const log = (message: string) => ({ type: 'log', message: `'${message}'` });
const files = gatewayFiles(
  { sources: { relay: { secrets: [SECRET] } } },
  {
    // conversation.started: one rule outcome and one action; escalated: two of each; order.paid: none.
    'started.json': { name: 'started', events: ['conversation.started'], actions: [log('started')] },
    'escalated.json': { name: 'escalated', events: ['conversation.escalated'], actions: [log('one'), log('two')] },
    'escalated-quiet.json': { name: 'escalated-quiet', events: ['conversation.escalated'], when: 'false', actions: [log('never')] },
  },
);

// Processing stamps deliveries with this clock; moved on, the list sees them as marked long ago.
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

type Read = { collection: string; query: Record<string, any> };

describe('gateway delivery list reads', () => {
  const rt = useTestRuntime({ env: files.env, clock, monitorCommands: true, ...modulesWithGateway() });

  /** The page over HTTP and the outcome reads it made. */
  async function page(query: string): Promise<{ body: any; reads: Read[] }> {
    const { result: res, reads: sent } = await readsSent(() => adminApi(rt)('get', `/gateway/deliveries?${query}`));
    expect(res.status).toBe(200);
    const reads = sent.filter(([c]) => c === 'gatewayRuleOutcomes' || c === 'gatewayActionOutcomes').map(([collection, q]) => ({ collection, query: q }));
    return { body: res.body, reads };
  }
  const ranges = (reads: Read[]) => reads.filter((r) => r.query.delivery && !r.query.delivery.$in).map((r) => [r.collection, JSON.parse(JSON.stringify(r.query.delivery))]);
  const byId = (reads: Read[], collection: string) => reads.filter((r) => r.collection === collection && r.query.delivery?.$in).flatMap((r) => r.query.delivery.$in as string[]);

  /** What the page's deliveries show with every outcome read by id (as before the range read). */
  async function shownById(body: any): Promise<unknown> {
    const ids: string[] = body.deliveries.map((d: any) => d.id);
    const rows = await GatewayDeliveryModel.find({ id: trusted({ $in: ids }) }, { rawBody: 0, headers: 0 }).lean<GatewayDelivery[]>();
    const inOrder = ids.map((id) => rows.find((r) => r.id === id)!);
    return JSON.parse(JSON.stringify((await withOutcomes(inOrder)).map((r) => presentDelivery(r))));
  }

  /** Every page of the list, `limit` at a time, each checked against the reads by id. */
  async function walk(limit: number, filter = ''): Promise<Array<{ body: any; reads: Read[] }>> {
    const pages = [];
    let cursor: string | null = null;
    do {
      const got = await page(`limit=${limit}${filter}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(got.body.deliveries).toEqual(await shownById(got.body));
      pages.push(got);
      cursor = got.body.deliveries.length === limit ? got.body.pagination.last : null;
    } while (cursor);
    return pages;
  }

  async function send(events: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const event of events) ids.push((await sendSigned(rt, 'relay', SECRET, { event, conversation: { id: randomUUID() } }, { event })).body.id);
    await waitFor(async () => (await GatewayDeliveryModel.countDocuments({ id: trusted({ $in: ids }), processedAt: null })) === 0);
    return ids;
  }

  let started: string[];
  beforeAll(async () => {
    started = await send(Array(7).fill('conversation.started'));
  });

  it('reads a page of deliveries marked a moment ago by id, and none of the range', async () => {
    const first = await page('limit=3');
    expect(first.body.deliveries.map((d: any) => d.id)).toEqual(started.slice(0, 3));
    expect(first.body.deliveries).toEqual(await shownById(first.body));
    expect(first.body.deliveries[0].rules).toMatchObject([{ rule: 'started', result: 'matched', actions: [{ type: 'log', status: 'succeeded' }] }]);
    expect(byId(first.reads, 'gatewayRuleOutcomes')).toEqual(started.slice(0, 3));
    expect(byId(first.reads, 'gatewayActionOutcomes')).toEqual(started.slice(0, 3));
  });

  it('reads the outcomes of a page marked long ago beside it, on the first page and after a cursor', async () => {
    offsetMs = 60_000;
    const first = await page('limit=3');
    expect(first.body.deliveries).toEqual(await shownById(first.body));
    expect(ranges(first.reads)).toEqual([
      ['gatewayRuleOutcomes', { $gte: '' }],
      ['gatewayActionOutcomes', { $gte: '' }],
    ]);
    expect(byId(first.reads, 'gatewayRuleOutcomes')).toEqual([]);
    expect(byId(first.reads, 'gatewayActionOutcomes')).toEqual([]);

    const cursor = first.body.pagination.last;
    const next = await page(`limit=3&cursor=${cursor}`);
    expect(next.body.deliveries.map((d: any) => d.id)).toEqual(started.slice(3, 6));
    expect(next.body.deliveries).toEqual(await shownById(next.body));
    expect(ranges(next.reads)).toEqual([
      ['gatewayRuleOutcomes', { $gt: cursor }],
      ['gatewayActionOutcomes', { $gt: cursor }],
    ]);
    expect(byId(next.reads, 'gatewayRuleOutcomes')).toEqual([]);
    expect(byId(next.reads, 'gatewayActionOutcomes')).toEqual([]);
  });

  it('reads by id only the deliveries whose outcomes the range does not hold whole', async () => {
    offsetMs = 0;
    // After the seven: two outcomes of each kind, then none, then two again.
    const later = await send(['conversation.escalated', 'conversation.escalated', 'order.paid', 'conversation.escalated']);
    offsetMs = 60_000;
    const got = await page(`limit=3&cursor=${started.at(-1)}`);
    expect(got.body.deliveries.map((d: any) => d.id)).toEqual(later.slice(0, 3));
    expect(got.body.deliveries).toEqual(await shownById(got.body));
    expect(got.body.deliveries[0].rules.map((r: any) => [r.rule, r.result, r.actions.length])).toEqual([
      ['escalated', 'matched', 2],
      ['escalated-quiet', 'skipped', 0],
    ]);
    // Four rule outcomes read (one more than the page): the first delivery's two and the second's
    // two, which may not be all of the second's. Four actions: the same.
    expect(byId(got.reads, 'gatewayRuleOutcomes')).toEqual(later.slice(1, 3));
    expect(byId(got.reads, 'gatewayActionOutcomes')).toEqual(later.slice(1, 3));
  });

  it('reads a filtered page by id', async () => {
    const got = await page('limit=100&event=conversation.escalated');
    expect(got.body.deliveries).toHaveLength(3);
    expect(got.body.deliveries).toEqual(await shownById(got.body));
    expect(ranges(got.reads)).toEqual([]);
    expect(byId(got.reads, 'gatewayRuleOutcomes')).toEqual(got.body.deliveries.map((d: any) => d.id));
  });

  it('newest first, reads the outcomes before the cursor beside each page, and shows what reads by id show', async () => {
    offsetMs = 60_000;
    const all = (await page('limit=100')).body.deliveries.map((d: any) => d.id);
    const pages: Array<{ body: any; reads: Read[] }> = [];
    let cursor: string | null = null;
    do {
      const got = await page(`order=desc&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(got.body.deliveries).toEqual(await shownById(got.body));
      expect(ranges(got.reads)).toEqual([
        ['gatewayRuleOutcomes', cursor ? { $lt: cursor } : { $gte: '' }],
        ['gatewayActionOutcomes', cursor ? { $lt: cursor } : { $gte: '' }],
      ]);
      pages.push(got);
      cursor = got.body.deliveries.length === 3 ? got.body.pagination.last : null;
    } while (cursor);
    expect(pages.flatMap((p) => p.body.deliveries.map((d: any) => d.id))).toEqual([...all].reverse());
    // The third page is three of the first seven, one outcome of each kind apiece: the range of
    // four holds all three whole (the fourth is the next page's first), so none is read by id.
    expect(pages[2]!.body.deliveries.map((d: any) => d.id)).toEqual(started.slice(2, 5).reverse());
    expect(byId(pages[2]!.reads, 'gatewayRuleOutcomes')).toEqual([]);
    expect(byId(pages[2]!.reads, 'gatewayActionOutcomes')).toEqual([]);
    expect(pages[2]!.body.deliveries[0].rules).toMatchObject([{ rule: 'started', result: 'matched', actions: [{ type: 'log', status: 'succeeded' }] }]);
  });

  it('closes every cursor of a page of 100 after a cursor with its reply, with no killCursors after it', async () => {
    const at = new Date(Date.now() - 3_600_000);
    const ids = Array.from({ length: 102 }, () => timeOrderedId());
    const row = (id: string) => ({ _id: id, id, source: 'relay', deliveryId: randomUUID(), event: 'order.paid', test: false, signed: { deliveryId: false, event: false, test: false }, receivedAt: at, run: 0, processedRun: 0, processedAt: at, sweptAt: at });
    await GatewayDeliveryModel.collection.insertMany(ids.map(row) as never[]);
    const commands: string[] = [];
    // The page's own: the worker beside it polls other collections.
    await watchCommands(
      async () => {
        const got = await page(`limit=100&cursor=${ids[0]}`);
        expect(got.body.deliveries.map((d: any) => d.id)).toEqual(ids.slice(1, 101));
      },
      (e) => {
        if (String(e.command[e.commandName]).startsWith('gateway')) commands.push(e.commandName);
      },
    );
    expect(commands.sort()).toEqual(['aggregate', 'find', 'find', 'find']);
  });
});
