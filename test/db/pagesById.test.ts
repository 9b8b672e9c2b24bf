// Keyset pages by `_id` (src/db/pagesById.ts): every matching document once, in order; each page one
// `find` that ends with its reply (no getMore, so no cursor holds a read snapshot between pages);
// the next page asked for while the caller works on the current one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MongoClient, type CommandStartedEvent, type Document, type Filter } from 'mongodb';
import { pagesById } from '../../src/db/pagesById.ts';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';

describe('pagesById', () => {
  let client: MongoClient;
  const started: CommandStartedEvent[] = [];
  const succeeded: string[] = [];
  beforeAll(async () => {
    client = await MongoClient.connect(databaseUri(uniqueDatabaseName()), { monitorCommands: true });
    client.on('commandStarted', (e) => started.push(e));
    client.on('commandSucceeded', (e) => succeeded.push(e.commandName));
  });
  afterAll(async () => {
    await client.db().dropDatabase();
    await client.close();
  });
  const commands = () => started.map((e) => e.commandName).filter((n) => n === 'find' || n === 'getMore');

  it('yields every matching document once, in _id order, one find per page and no getMore', async () => {
    const docs = client.db().collection<Document>('all');
    await docs.createIndex({ ds: 1, _id: 1 });
    // Interleaved with another source's documents, inserted out of order.
    const ids = Array.from({ length: 25 }, (_, n) => `d${String(n).padStart(2, '0')}`);
    await docs.insertMany([...ids].reverse().flatMap((_id, n) => [{ _id, ds: 'a', n: 24 - n }, { _id: `${_id}x`, ds: 'b' }]) as never[]);
    started.length = 0;
    const sizes: number[] = [];
    const seen: string[] = [];
    for await (const page of pagesById<{ _id: string; ds: string }>(docs, { ds: 'a' }, 10)) {
      sizes.push(page.length);
      seen.push(...page.map((d) => d._id));
      expect(page.every((d) => d.ds === 'a')).toBe(true);
    }
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(ids);
    expect(commands()).toEqual(['find', 'find', 'find']);
  });

  it('pages within an _id range, from the highest down when asked', async () => {
    const docs = client.db().collection<Document>('all');
    const ids = Array.from({ length: 25 }, (_, n) => `d${String(n).padStart(2, '0')}`);
    const seen = async (range: Parameters<typeof pagesById>[4]) => {
      const out: string[] = [];
      for await (const page of pagesById<{ _id: string }>(docs, { ds: 'a' }, 4, undefined, range)) out.push(...page.map((d) => d._id));
      return out;
    };
    expect(await seen({ lt: 'd10' })).toEqual(ids.slice(0, 10));
    expect(await seen({ gte: 'd20', descending: true })).toEqual(ids.slice(20).reverse());
    expect(await seen({ gte: 'd05', lt: 'd15', descending: true })).toEqual(ids.slice(5, 15).reverse());
  });

  it.skipIf(!!process.env.MONGODB_URI)('reads each page as a seek of the (filter, _id) index on the embedded database (SQLite plan)', async () => {
    const docs = client.db().collection<Document>('all');
    for (const filter of [{ ds: 'a' }, { ds: 'a', _id: { $gt: 'd09' } }]) {
      const plan = JSON.stringify((await docs.find(filter as Filter<Document>).sort({ _id: 1 }).limit(10).explain()).queryPlanner);
      expect(plan).toMatch(/SEARCH all_\w+ USING INDEX all_\w+_ds_1__id_1/);
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });

  it('ends after a full last page with one empty read, and yields nothing for no match', async () => {
    const docs = client.db().collection<Document>('exact');
    await docs.insertMany(Array.from({ length: 20 }, (_, n) => ({ _id: `e${String(n).padStart(2, '0')}`, ds: 'a' })) as never[]);
    const sizes: number[] = [];
    for await (const page of pagesById(docs, { ds: 'a' }, 10)) sizes.push(page.length);
    expect(sizes).toEqual([10, 10]);
    const none: unknown[] = [];
    for await (const page of pagesById(docs, { ds: 'nobody' }, 10)) none.push(page);
    expect(none).toEqual([]);
  });

  it('has the next page read before the caller asks for it, and leaves nothing open when the caller stops', async () => {
    const docs = client.db().collection<Document>('ahead');
    await docs.insertMany(Array.from({ length: 30 }, (_, n) => ({ _id: `f${String(n).padStart(2, '0')}`, ds: 'a' })) as never[]);
    started.length = 0;
    succeeded.length = 0;
    for await (const page of pagesById(docs, { ds: 'a' }, 10)) {
      expect(page).toHaveLength(10);
      // Nothing more is asked of the generator here: the second page's read completes on its own.
      await vi.waitFor(() => expect(succeeded.filter((n) => n === 'find')).toHaveLength(2), { timeout: 10_000 });
      break;
    }
    // The second page started after the first one's last _id; no third read was made.
    const finds = started.filter((e) => e.commandName === 'find');
    expect(finds).toHaveLength(2);
    expect(finds[1]!.command.filter).toEqual({ ds: 'a', _id: { $gt: 'f09' } });
    expect(commands()).toEqual(['find', 'find']);
  });
});
