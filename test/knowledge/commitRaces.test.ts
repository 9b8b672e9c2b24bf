// Commits and discards of runs that overlap (knowledge/store.ts): a superseded run past its last
// heartbeat may still commit, fail or discard while a newer run works. None of them may move the
// segment back, leave the live manifest naming a pack that is gone, or delete a newer run's packs.
// Runs are driven through the store directly, so each interleaving is exact.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import type { CommandStartedEvent, Document } from 'mongodb';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { createDataSource, rowIds } from '../datasources/support.ts';
import { DataSourceModel, type DataSource } from '../../src/datasources/model.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { failSync } from '../../src/datasources/sync.ts';
import { performSyncSweep } from '../../src/datasources/sweep.job.ts';
import { KnowledgeManifestModel, KnowledgePackModel, KnowledgeSegmentModel } from '../../src/knowledge/model.ts';
import { PackWriter } from '../../src/knowledge/packWriter.ts';
import { commitKnowledge, discardRun, emptyManifest, KnowledgeSuperseded, readCommitted, readPack, removeKnowledge, type Manifest, type RowChunks } from '../../src/knowledge/store.ts';

const group = (rowId: string, text: string): RowChunks => ({
  rowId,
  hash: createHash('sha256').update(text).digest('hex'),
  chunks: [{ heading: null, text, tokens: 2 }],
});

describe('overlapping runs of one data source', () => {
  const rt = useTestRuntime({ worker: false, monitorCommands: true });
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    api = publicApi(rt, await createTenant({ plan: 'pro' }));
  });

  /** A source with rows x and y learned by one sync (one pack), and that run. */
  async function syncedSource(): Promise<{ ds: DataSource; x: string; y: string; run: number; base: Manifest }> {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'x', content: 'Xray.' }, { name: 'y', content: 'Yankee.' }] }).expect(200);
    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
    const run = (await DataSourceModel.findById(id).lean())!.syncRun;
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run })).toBe('done');
    const rows = await rowIds(api, id);
    const ds = (await DataSourceModel.findById(id).lean<DataSource>())!;
    return { ds, x: rows.find((r) => r.name === 'x')!.id, y: rows.find((r) => r.name === 'y')!.id, run, base: await readCommitted(id) };
  }
  const commit = (ds: DataSource, run: number, previous: Manifest, processed: RowChunks[], written?: PackWriter) =>
    commitKnowledge({ botId: ds.botId, dataSourceId: ds._id, run, previous, processed, written, liveRowIds: Object.keys(previous.rows), now: new Date() });
  /** The live knowledge as row → hash, after checking that each row's pack exists and holds it. */
  async function live(dataSourceId: string): Promise<Record<string, string>> {
    const manifest = await readCommitted(dataSourceId);
    expect(await KnowledgePackModel.collection.countDocuments({ _id: { $in: Object.keys(manifest.packs) } } as never)).toBe(Object.keys(manifest.packs).length);
    const out: Record<string, string> = {};
    for (const [rowId, entry] of Object.entries(manifest.rows)) {
      const stored = (await readPack(entry.p)).find((g) => g.rowId === rowId);
      expect(stored?.hash, `row ${rowId} in pack ${entry.p}`).toBe(entry.h);
      out[rowId] = entry.h;
    }
    return out;
  }

  it('refuses the commit of a superseded run that comes after the newer run committed, deleting nothing of it', async () => {
    const { ds, x, y, run, base } = await syncedSource();
    await commit(ds, run + 2, base, [group(x, 'Xray two.')]);
    await expect(commit(ds, run + 1, base, [group(y, 'Yankee one.')])).rejects.toBeInstanceOf(KnowledgeSuperseded);

    expect((await KnowledgeSegmentModel.findById(ds._id).lean())!.run).toBe(run + 2);
    expect(await live(ds._id)).toEqual({ [x]: group(x, 'Xray two.').hash, [y]: base.rows[y]!.h });
    expect(await KnowledgeManifestModel.countDocuments({ dataSourceId: ds._id, run: run + 1 })).toBe(0);
    await discardRun(ds._id, run + 1);
    expect(await KnowledgePackModel.countDocuments({ dataSourceId: ds._id, run: run + 1 })).toBe(0);
    expect(await live(ds._id)).toEqual({ [x]: group(x, 'Xray two.').hash, [y]: base.rows[y]!.h });
  });

  it('builds a newer run on the commit of an older one that collected its base, so no row names a deleted pack', async () => {
    const { ds, x, y, run, base } = await syncedSource();
    // The older run re-learns both rows: the base's only pack is garbage after its commit.
    await commit(ds, run + 1, base, [group(x, 'Xray one.'), group(y, 'Yankee one.')]);
    await commit(ds, run + 2, base, [group(x, 'Xray two.')]);

    expect((await KnowledgeSegmentModel.findById(ds._id).lean())!.run).toBe(run + 2);
    expect(await live(ds._id)).toEqual({ [x]: group(x, 'Xray two.').hash, [y]: group(y, 'Yankee one.').hash });
  });

  it("lets a superseded run fail without deleting the packs of the run that superseded it", async () => {
    const { ds, x, run, base } = await syncedSource();
    await DataSourceModel.updateOne({ _id: ds._id }, { $set: { state: 'syncing', syncRun: run + 2 } });
    const newer = new PackWriter(ds._id, run + 2);
    newer.add(group(x, 'Xray two.'));
    await newer.finish();

    expect(await failSync(rt.runtime.ctx, ds, run + 1, 'sync failed: provider down')).toBe(false);
    await commit(ds, run + 2, base, [group(x, 'Xray two.')], newer);
    expect((await live(ds._id))[x]).toBe(group(x, 'Xray two.').hash);
  });

  it('keeps, when discarding a run that did commit, the packs a newer manifest still holds rows in', async () => {
    const { ds, x, y, run, base } = await syncedSource();
    const first = await commit(ds, run + 1, base, [group(x, 'Xray one.'), group(y, 'Yankee one.')]);
    await commit(ds, run + 2, first.manifest, [group(x, 'Xray two.')]);
    // A second runner of run + 1 (FerretDB can hand a job to two) finds it superseded at its heartbeat.
    await discardRun(ds._id, run + 1);
    expect(await live(ds._id)).toEqual({ [x]: group(x, 'Xray two.').hash, [y]: group(y, 'Yankee one.').hash });
  });

  it('leaves a run that never committed alone while a second runner of it may still commit it', async () => {
    const { ds, x, y, run, base } = await syncedSource();
    const twin = new PackWriter(ds._id, run + 1);
    twin.add(group(x, 'Xray one.'));
    await twin.finish();
    // The other runner of run + 1 found it superseded at a heartbeat; this one is past its last.
    await discardRun(ds._id, run + 1);
    await commit(ds, run + 1, base, [group(x, 'Xray one.')], twin);
    expect(await live(ds._id)).toEqual({ [x]: group(x, 'Xray one.').hash, [y]: base.rows[y]!.h });
  });

  it('replaces a segment whose manifest is gone with a run that learned every row', async () => {
    const { ds, x, y, run } = await syncedSource();
    await KnowledgeManifestModel.deleteOne({ _id: `${ds._id}:${run}` });
    const processed = [group(x, 'Xray one.'), group(y, 'Yankee one.')];
    await commitKnowledge({ botId: ds.botId, dataSourceId: ds._id, run: run + 1, previous: emptyManifest(), processed, liveRowIds: [x, y], now: new Date() });
    expect(await live(ds._id)).toEqual({ [x]: processed[0]!.hash, [y]: processed[1]!.hash });
  });

  it('keeps the packs of a run the sweeper restarts while it still works, so its late commit stays whole', async () => {
    const { ds, x, run, base } = await syncedSource();
    // Run + 1 wrote a pack, then an embedding call outlived the stale window: past its last heartbeat.
    await DataSourceModel.updateOne({ _id: ds._id }, { $set: { state: 'syncing', syncRun: run + 1, syncHeartbeatAt: new Date(0), syncRetries: 0 } });
    const slow = new PackWriter(ds._id, run + 1);
    slow.add(group(x, 'Xray one.'));
    await slow.finish();
    expect((await performSyncSweep(rt.runtime.ctx)).retried).toContain(ds._id);

    await commit(ds, run + 1, base, [group(x, 'Xray one.')], slow);
    expect((await live(ds._id))[x]).toBe(group(x, 'Xray one.').hash);
    expect(await performSync(rt.runtime.ctx, { dataSourceId: ds._id, run: run + 2 })).toBe('done');
    expect(Object.keys(await live(ds._id))).toHaveLength(2);
  });

  it('removes at the next commit what runs that never committed left behind', async () => {
    const { ds, x, run, base } = await syncedSource();
    for (const dead of [run + 1, run + 2]) {
      const writer = new PackWriter(ds._id, dead);
      writer.add(group(x, `Xray ${dead}.`));
      await writer.finish();
    }
    await commit(ds, run + 3, base, [group(x, 'Xray three.')]);
    expect(await KnowledgePackModel.collection.countDocuments({ dataSourceId: ds._id, run: { $gt: run, $lt: run + 3 } } as never)).toBe(0);
    expect(Object.keys(await live(ds._id))).toHaveLength(2);
  });

  it('writes the manifest only once every pack insert of the run has been acknowledged, and none when one fails', async () => {
    const { ds, x, y, run, base } = await syncedSource();
    // Two groups of 300 chunks: two packs, the second inserted by the commit itself.
    const big = (rowId: string, word: string): RowChunks => ({ ...group(rowId, word), chunks: Array.from({ length: 300 }, (_, i) => ({ heading: null, text: `${word} ${i}.`, tokens: 2 })) });
    const events: string[] = [];
    const client = mongoose.connection.getClient();
    const pending = new Map<number, string>();
    const started = (e: CommandStartedEvent) => {
      const collection = e.command[e.commandName];
      if (e.commandName !== 'insert' || !/^knowledge(packs|manifests)$/.test(collection)) return;
      pending.set(e.requestId, collection);
      events.push(`start ${collection}`);
    };
    const succeeded = (e: { requestId: number }) => {
      const collection = pending.get(e.requestId);
      if (collection) events.push(`done ${collection}`);
    };
    client.on('commandStarted', started);
    client.on('commandSucceeded', succeeded);
    try {
      await commit(ds, run + 1, base, [big(x, 'Xray'), big(y, 'Yankee')]);
    } finally {
      client.off('commandStarted', started);
      client.off('commandSucceeded', succeeded);
    }
    const firstManifest = events.indexOf('start knowledgemanifests');
    expect(events.filter((e) => e === 'done knowledgepacks').length).toBeGreaterThanOrEqual(1);
    expect(firstManifest).toBeGreaterThan(events.lastIndexOf('done knowledgepacks'));
    expect(events.slice(firstManifest)).not.toContain('start knowledgepacks');

    // A second runner of the next run stored its first pack already: this commit's insert fails.
    const committed = await readCommitted(ds._id);
    await KnowledgePackModel.collection.insertOne({ _id: `${ds._id}:${run + 2}:0`, dataSourceId: ds._id, run: run + 2, data: Buffer.alloc(0) } as never);
    await expect(commit(ds, run + 2, committed, [group(x, 'Xray two.')])).rejects.toMatchObject({ code: 11000 });
    expect(await KnowledgeManifestModel.countDocuments({ dataSourceId: ds._id, run: run + 2 })).toBe(0);
  });

  it("keys every read and delete of a source's packs and manifests by _id (a range of the _id index for the cleanups)", async () => {
    const { ds, x, run, base } = await syncedSource();
    const other = await syncedSource();
    const leftover = new PackWriter(ds._id, run + 1);
    leftover.add(group(x, 'Xray one.'));
    await leftover.finish();
    const filters: Document[] = [];
    const client = mongoose.connection.getClient();
    const started = (e: CommandStartedEvent) => {
      const collection = e.command[e.commandName];
      if (!/^knowledge(packs|manifests)$/.test(collection)) return;
      if (e.commandName === 'delete') filters.push(...e.command.deletes.map((d: { q: Document }) => d.q));
      if (e.commandName === 'find') filters.push(e.command.filter);
    };
    client.on('commandStarted', started);
    try {
      await commit(ds, run + 2, base, [group(x, 'Xray two.')]);
      await discardRun(ds._id, run + 1);
      await removeKnowledge(ds._id);
    } finally {
      client.off('commandStarted', started);
    }
    expect(await KnowledgePackModel.countDocuments({ dataSourceId: ds._id })).toBe(0);
    expect(await KnowledgeManifestModel.countDocuments({ dataSourceId: ds._id })).toBe(0);
    expect(Object.keys(await live(other.ds._id))).toHaveLength(2);
    for (const q of filters) expect(q._id, JSON.stringify(q)).toBeDefined();
    const ranges = filters.filter((q) => JSON.stringify(q._id) === JSON.stringify({ $gte: `${ds._id}:`, $lt: `${ds._id};` }));
    expect(ranges.length).toBeGreaterThanOrEqual(5);
    if (process.env.MONGODB_URI) return;
    // The embedded database's SQLite plan for such a filter: a search of the _id index, no scan.
    const plan = JSON.stringify(await KnowledgePackModel.collection.find(ranges[0]!).explain());
    expect(plan).toMatch(/SEARCH \w+ USING INDEX/);
    expect(plan).not.toMatch(/SCAN \w+/);
  });
});
