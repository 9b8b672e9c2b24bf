// The committed manifest stored in buckets (knowledge/manifest.ts): a row's get reads its own
// bucket, not the whole manifest (concurrent first gets share one read); an interrupted commit's
// buckets are discarded, and a superseded manifest's collected.
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import type { CommandStartedEvent } from 'mongodb';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { createDataSource, rowIds } from '../datasources/support.ts';
import { DataSourceModel } from '../../src/datasources/model.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { KnowledgeManifestModel, KnowledgeSegmentModel } from '../../src/knowledge/model.ts';
import { BUCKET_ROWS, bucketOf, writeManifest } from '../../src/knowledge/manifest.ts';
import { readCommitted } from '../../src/knowledge/store.ts';

/** Two buckets. */
const ROWS = BUCKET_ROWS + 100;

describe('manifest buckets', () => {
  const rt = useTestRuntime({ worker: false, monitorCommands: true });
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    api = publicApi(rt, await createTenant({ plan: 'pro' }));
  });

  const sync = async (dataSourceId: string) => {
    await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
    const ds = await DataSourceModel.findById(dataSourceId).lean();
    expect(await performSync(rt.runtime.ctx, { dataSourceId, run: ds!.syncRun })).toBe('done');
  };
  async function syncedSource(rows: number): Promise<{ id: string; rowIds: string[] }> {
    const id = await createDataSource(api);
    const all = Array.from({ length: rows }, (_, i) => ({ name: `r-${i}.md`, content: `# Row ${i}\n\nText of row ${i}.` }));
    for (let i = 0; i < rows; i += 100) await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: all.slice(i, i + 100) }).expect(200);
    await sync(id);
    return { id, rowIds: (await rowIds(api, id)).map((r) => r.id) };
  }
  const getRow = async (dataSourceId: string, rowId: string) =>
    (await api('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${rowId}`).expect(200)).body.dataSourceRow as { state: string };
  const manifestIds = async (dataSourceId: string) =>
    (await KnowledgeManifestModel.find({ dataSourceId }, { _id: 1 }).lean()).map((d) => String(d._id)).sort();
  /** Manifest documents (id and BSON bytes) the driver receives while `fn` runs. */
  async function manifestReads(fn: () => Promise<unknown>): Promise<Array<{ id: string; bytes: number }>> {
    const finds = new Set<number>();
    const reads: Array<{ id: string; bytes: number }> = [];
    const client = mongoose.connection.getClient();
    const started = (e: CommandStartedEvent) => void (e.commandName === 'find' && e.command.find === 'knowledgemanifests' && finds.add(e.requestId));
    const succeeded = (e: { requestId: number; reply: unknown }) => {
      if (!finds.has(e.requestId)) return;
      for (const doc of (e.reply as { cursor: { firstBatch: Array<{ _id: string }> } }).cursor.firstBatch) {
        reads.push({ id: doc._id, bytes: mongoose.mongo.BSON.calculateObjectSize(doc) });
      }
    };
    client.on('commandStarted', started);
    client.on('commandSucceeded', succeeded);
    try {
      await fn();
    } finally {
      client.off('commandStarted', started);
      client.off('commandSucceeded', succeeded);
    }
    return reads;
  }

  it('answers the first get after a commit from the row bucket alone', async () => {
    const { id, rowIds: ids } = await syncedSource(ROWS);
    const segment = (await KnowledgeSegmentModel.findById(id).lean())!;
    expect(segment.buckets).toBe(2);
    const stored = await KnowledgeManifestModel.find({ dataSourceId: id }).lean();
    const total = stored.reduce((n, d) => n + mongoose.mongo.BSON.calculateObjectSize(d), 0);

    const rowId = ids[7]!;
    const reads = await manifestReads(async () => expect((await getRow(id, rowId)).state).toBe('synced'));
    expect(reads.map((r) => r.id)).toEqual([`${segment.manifestId}:${bucketOf(rowId, 2)}`]);
    expect(reads[0]!.bytes).toBeLessThan(total * 0.7);
    // Cached: the next get of a row of that bucket reads no manifest document.
    const sameBucket = ids.find((r) => r !== rowId && bucketOf(r, 2) === bucketOf(rowId, 2))!;
    expect(await manifestReads(() => getRow(id, sameBucket))).toEqual([]);
    // Concurrent first gets of the other bucket share one read of it.
    const other = ids.filter((r) => bucketOf(r, 2) !== bucketOf(rowId, 2)).slice(0, 6);
    const shared = await manifestReads(() => Promise.all(other.map((r) => getRow(id, r))));
    expect(shared.map((r) => r.id)).toEqual([`${segment.manifestId}:${bucketOf(other[0]!, 2)}`]);
  });

  it('collects the previous manifest with its buckets at a commit', async () => {
    const { id, rowIds: ids } = await syncedSource(ROWS);
    const first = (await KnowledgeSegmentModel.findById(id).lean())!;
    expect(await manifestIds(id)).toEqual([first.manifestId, `${first.manifestId}:0`, `${first.manifestId}:1`].sort());
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: ids[0], name: 'r-0.md', content: '# Changed' }] }).expect(200);
    await sync(id);
    const second = (await KnowledgeSegmentModel.findById(id).lean())!;
    expect(second.manifestId).not.toBe(first.manifestId);
    expect(await manifestIds(id)).toEqual([second.manifestId, `${second.manifestId}:0`, `${second.manifestId}:1`].sort());
    expect(Object.keys((await readCommitted(id)).rows)).toHaveLength(ROWS);
  });

  it('refuses to read a manifest missing a bucket rather than answer without its rows', async () => {
    const { id } = await syncedSource(3);
    const segment = (await KnowledgeSegmentModel.findById(id).lean())!;
    await KnowledgeManifestModel.deleteOne({ _id: `${segment.manifestId}:0` });
    await expect(readCommitted(id)).rejects.toThrow(/lacks 1 of its buckets/);
  });

  it('removes, at the next commit, the buckets of a commit interrupted before its segment switch', async () => {
    const { id, rowIds: ids } = await syncedSource(3);
    const committed = await readCommitted(id);
    const before = await manifestIds(id);
    // A crash after the manifest's documents were written, before the segment switch.
    const rows = Object.fromEntries(Array.from({ length: 2 * BUCKET_ROWS + 1 }, (_, i) => [`orphan-${i}`, committed.rows[ids[0]!]!]));
    await writeManifest(id, { run: committed.run + 1, tracked: true, rows, packs: committed.packs, buckets: 3 });
    expect((await manifestIds(id)).length).toBe(before.length + 4);
    expect((await getRow(id, ids[1]!)).state).toBe('synced');

    // The sweeper's restart of the crashed run.
    await DataSourceModel.updateOne({ _id: id }, { $set: { state: 'syncing', syncRun: committed.run + 2 } });
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run: committed.run + 2 })).toBe('done');
    expect(await manifestIds(id)).toEqual([`${id}:${committed.run + 2}`, `${id}:${committed.run + 2}:0`]);
    expect(Object.keys((await readCommitted(id)).rows).sort()).toEqual([...ids].sort());
  });
});
