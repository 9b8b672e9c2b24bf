// The gateway delivery list's order (service.ts): oldest first by default, newest first with
// `order=desc`, each by `_id` (the time of receipt, then the id), so deliveries received in the
// same millisecond, by one instance or by several, page once each and in one order across pages,
// filtered or not. On the embedded database the newest-first reads come from an index read
// backwards, with no sort of their own.
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { GatewayDeliveryModel, RuleOutcomeModel } from '../../src/gateway/model.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { idAt, processedRow } from './support/ids.ts';

const files = gatewayFiles({ sources: { relay: { secrets: ['list-order-secret-0123456789'] } } });

interface Row {
  id: string;
  source: string;
  event: string;
}

describe('gateway delivery list order', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const list = (query: string) => adminApi(rt)('get', `/gateway/deliveries?${query}`);

  // Three moments, four deliveries in each (same receivedAt, same millisecond of id), from two
  // sources and two events; stored in a shuffled order, so insertion order tells nothing.
  const base = Date.now() - 3_600_000;
  const rows: Row[] = [];
  for (let t = 0; t < 3; t++) {
    for (let n = 0; n < 4; n++) rows.push({ id: idAt(base + t), source: n % 2 ? 'shop' : 'relay', event: n < 2 ? 'order.paid' : 'order.refunded' });
  }
  const ascending = (of: Row[]) => of.map((r) => r.id).sort();
  const descending = (of: Row[]) => ascending(of).reverse();

  beforeAll(async () => {
    const shuffled = [...rows].sort(() => Math.random() - 0.5);
    await GatewayDeliveryModel.collection.insertMany(
      shuffled.map((r) => processedRow(r.id, { ...r, deliveryId: randomUUID(), at: new Date(base + Math.floor(rows.indexOf(r) / 4)) })) as never[],
    );
  });

  /** Every page, `limit` at a time; each page's ids, in the order listed. */
  async function walk(query: string, limit: number): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const ids = (res.body.deliveries as Array<{ id: string }>).map((d) => d.id);
      expect(res.body.pagination.last).toBe(ids.at(-1) ?? null);
      pages.push(ids);
      cursor = ids.length === limit ? res.body.pagination.last : null;
    } while (cursor);
    return pages;
  }

  it('lists newest first with order=desc, paging on to older deliveries across ties in time', async () => {
    for (const limit of [1, 3, 5]) {
      const pages = await walk('order=desc', limit);
      expect(pages.flat()).toEqual(descending(rows));
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
    // The first page holds the last moment's four, whatever the order they were stored in.
    const first = (await list('order=desc&limit=4').expect(200)).body;
    expect(first.deliveries.map((d: { id: string }) => d.id)).toEqual(descending(rows.slice(8)));
    expect(first.deliveries.map((d: { receivedAt: string }) => d.receivedAt)).toEqual(Array(4).fill(new Date(base + 2).toISOString()));
    expect(first.pagination).toMatchObject({ total: 12 });
  });

  it('lists newest first within a source or an event filter', async () => {
    for (const [query, match] of [
      ['source=shop', (r: Row) => r.source === 'shop'],
      ['event=order.refunded', (r: Row) => r.event === 'order.refunded'],
      ['source=relay&event=order.paid', (r: Row) => r.source === 'relay' && r.event === 'order.paid'],
    ] as const) {
      expect((await walk(`order=desc&${query}`, 2)).flat()).toEqual(descending(rows.filter(match)));
      expect((await walk(`order=asc&${query}`, 2)).flat()).toEqual(ascending(rows.filter(match)));
    }
  });

  it('keeps oldest first as the default, and refuses another order or a cursor from no item', async () => {
    expect((await walk('', 5)).flat()).toEqual(ascending(rows));
    expect((await walk('order=asc', 5)).flat()).toEqual(ascending(rows));
    const bad = await list('order=newest');
    expect([bad.status, bad.body]).toEqual([400, expect.objectContaining({ success: false, code: 'validation_failed', message: 'order: order must be asc or desc' })]);
    const stray = await list(`order=desc&cursor=${idAt(base + 1)}`);
    expect([stray.status, stray.body.code]).toEqual([400, 'invalid_cursor']);
  });

  it.skipIf(!!process.env.MONGODB_URI)('reads newest first from an index backwards, with no sort of its own (SQLite plan)', async () => {
    await RuleOutcomeModel.create({ delivery: rows[0]!.id, run: 0, rule: 'r', file: 'r.json', result: 'matched', evaluatedAt: new Date() });
    const newestFirst = { _id: -1 } as const;
    const deliveries = GatewayDeliveryModel.collection as unknown as Collection<{ _id: string; source: string; event: string }>;
    const cursor = rows[5]!.id;
    const reads = [
      deliveries.find({ _id: { $gte: '' } }).sort(newestFirst).limit(3),
      deliveries.find({ _id: { $lte: cursor } }).sort(newestFirst).limit(4),
      deliveries.find({ source: 'shop', _id: { $lte: cursor } }).sort(newestFirst).limit(4),
      deliveries.find({ event: 'order.paid', _id: { $gte: '' } }).sort(newestFirst).limit(3),
      RuleOutcomeModel.collection.find({ delivery: { $lt: cursor } }).sort({ delivery: -1 }).limit(4),
    ];
    for (const read of reads) {
      const explain = await read.explain();
      const what = JSON.stringify(explain.queryPlanner);
      expect(explain, what).toMatchObject({ filterPushdown: true, sortPushdown: true });
      expect(what).not.toContain('TEMP B-TREE');
    }
  });
});
