// Re-syncs follow the rows' change log (src/datasources/changes.ts): each row write logs its row,
// a sync reads only the logged rows and clears the entries it learned from. Proven here through
// the API with the sync job run in this process; bench/sync.ts measures what it saves.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { DataSourceModel, DataSourceRowModel, RowChangeModel, RowContentModel } from '../../src/datasources/model.ts';
import { packContent, contentHash } from '../../src/datasources/content.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { logRowChanges } from '../../src/datasources/changes.ts';
import { KnowledgeManifestModel, KnowledgeSegmentModel } from '../../src/knowledge/model.ts';
import { createDataSource, getDataSource, rowIds } from './support.ts';

describe('sync follows the change log', () => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'pro' });
    api = publicApi(rt, tenant);
  });

  const sync = async (dataSourceId: string) => {
    await api('post', '/data-sources/sync', { dataSourceId }).expect(200);
    const ds = await DataSourceModel.findById(dataSourceId).lean();
    expect(await performSync(rt.runtime.ctx, { dataSourceId, run: ds!.syncRun })).toBe('done');
    return (await DataSourceModel.findById(dataSourceId).lean())!.lastResults!;
  };
  /** Row ids waiting in the log (one entry per request). */
  const logged = async (dataSourceId: string) =>
    (await RowChangeModel.find({ dataSourceId }).lean<Array<{ rowIds: string[] }>>()).reduce((n, e) => n + e.rowIds.length, 0);
  const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ name: `${tag}-${i}.md`, content: `# ${tag} ${i}\n\nText of ${tag} row ${i}.` }));
  /** Changes a row's stored content the way no API path does: without a log entry. */
  const editBehindTheLog = async (rowId: string, content: string) => {
    await RowContentModel.updateOne({ _id: rowId }, { $set: { hash: contentHash(content), data: packContent(content) } });
  };

  it('logs every add, update and delete, and a sync clears what it learned', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(5, 'a') }).expect(200);
    expect(await logged(id)).toBe(5);
    expect(await sync(id)).toMatchObject({ modifiedRows: 5, unmodifiedRows: 0, totalDataSourceRows: 5 });
    expect(await logged(id)).toBe(0);

    const [first, second, third] = await rowIds(api, id);
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: first!.id, name: 'renamed.md', content: '# New\n\nNew text.' }] }).expect(200);
    // A rename without a content change has nothing to teach the bot: not logged.
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: second!.id, name: 'renamed-too.md', content: '# a 1\n\nText of a row 1.' }] }).expect(200);
    await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: third!.id }, { id: '00000000-0000-4000-8000-000000000000' }] }).expect(200);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(2, 'b') }).expect(200);
    expect(await logged(id)).toBe(4);

    expect(await sync(id)).toMatchObject({ modifiedRows: 3, unmodifiedRows: 3, totalDataSourceRows: 6 });
    expect(await logged(id)).toBe(0);
    expect((await rowIds(api, id)).map((r) => r.id)).not.toContain(third!.id);
    // Nothing logged since: the next sync learns nothing and keeps every row.
    expect(await sync(id)).toMatchObject({ modifiedRows: 0, unmodifiedRows: 6, totalDataSourceRows: 6 });
  });

  it('reads only the logged rows once a tracked manifest exists', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(4, 'c') }).expect(200);
    await sync(id);
    const [first, second] = await rowIds(api, id);

    // Only the logged row is looked at: a change that bypassed the log stays unseen.
    await editBehindTheLog(second!.id, '# Hidden\n\nChanged behind the log.');
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: first!.id, name: 'c-0.md', content: '# Seen\n\nChanged through the API.' }] }).expect(200);
    expect(await sync(id)).toMatchObject({ modifiedRows: 1, unmodifiedRows: 3 });
    const segment = (await KnowledgeSegmentModel.findById(id).lean())!;
    expect(segment.tracked).toBe(true);
    const { readCommitted } = await import('../../src/knowledge/store.ts');
    expect((await readCommitted(id)).tracked).toBe(true);
  });

  it('keeps entries logged while a sync runs for the next sync', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(3, 'd') }).expect(200);
    await sync(id);
    await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
    const run = (await DataSourceModel.findById(id).lean())!.syncRun;
    // Written after the start, before the job reads the log: learned by this run.
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(1, 'e') }).expect(200);
    expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run })).toBe('done');
    expect((await getDataSource(api, id)).state).toBe('synced');
    expect(await logged(id)).toBe(0);
    expect((await DataSourceModel.findById(id).lean())!.lastResults).toMatchObject({ modifiedRows: 1, totalDataSourceRows: 4 });
  });

  it('clears the log of a deleted data source', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(3, 'f') }).expect(200);
    expect(await logged(id)).toBe(3);
    await api('delete', '/data-sources', { dataSourceId: id }).expect(200);
    expect(await logged(id)).toBe(0);
  });

  it('estimates storage tokens from the log for a source born with it, and from its rows otherwise', async () => {
    const { estimateSyncTokens } = await import('../../src/datasources/sync.ts');
    const id = await createDataSource(api);
    const content = 'x'.repeat(400); // 100 tokens by the ~4 bytes per token estimate
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content }, { name: 'b', content }] }).expect(200);
    const ds = (await DataSourceModel.findById(id).lean())!;
    expect(ds.rowLog).toBe(true);
    expect(await estimateSyncTokens(ds)).toEqual({ tokens: 200, modifiedRows: 2 });

    // With the log cleared behind its back, a source born with the log trusts it (nothing to learn)…
    await RowChangeModel.deleteMany({ dataSourceId: id });
    expect(await estimateSyncTokens(ds)).toEqual({ tokens: 0, modifiedRows: 0 });
    // …and one from before the log reads its rows.
    await DataSourceModel.updateOne({ _id: id }, { $set: { rowLog: false } });
    expect(await estimateSyncTokens({ ...ds, rowLog: false })).toEqual({ tokens: 200, modifiedRows: 2 });
  });

  it('estimates a synced source from its segment and log alone, and from its rows when the segment is not tracked', async () => {
    const { estimateSyncTokens } = await import('../../src/datasources/sync.ts');
    const content = 'y'.repeat(400); // 100 tokens
    /** A synced two-row source with one row changed through the API and the other behind the log. */
    const syncedWithChanges = async () => {
      const id = await createDataSource(api);
      await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content }, { name: 'b', content }] }).expect(200);
      await sync(id);
      const [first, second] = await rowIds(api, id);
      await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: first!.id, name: 'a', content: content + 'z' }] }).expect(200);
      // What a row scan compares (its hash and size), changed the way no API path does: unlogged.
      await DataSourceRowModel.updateOne({ _id: second!.id }, { $set: { contentHash: contentHash('w'.repeat(800)), bytes: 800 } });
      return id;
    };
    const estimate = async (id: string) => estimateSyncTokens((await DataSourceModel.findById(id).lean())!);

    const current = await syncedWithChanges();
    expect((await KnowledgeSegmentModel.findById(current).lean())!.tracked).toBe(true);
    // The segment and the log alone (no manifest document is read): the row changed behind the log is not counted.
    const manifestReads = vi.spyOn(KnowledgeManifestModel, 'findById');
    expect(await estimate(current)).toEqual({ tokens: 101, modifiedRows: 1 });
    expect(manifestReads).not.toHaveBeenCalled();
    manifestReads.mockRestore();

    // The segment's `tracked` decides: one that is not reads every row, and counts the change behind the log too.
    const untracked = await syncedWithChanges();
    await KnowledgeSegmentModel.updateOne({ _id: untracked }, { $set: { tracked: false } });
    expect(await estimate(untracked)).toEqual({ tokens: 301, modifiedRows: 2 });
  });
  describe('a logged write that lands after the sync read its row', () => {
    /** The two halves of a row update (rows.ts): the log entry, and later the write itself. */
    const logUpdate = (dataSourceId: string, rowId: string, content: string) =>
      logRowChanges(dataSourceId, [{ id: rowId, bytes: Buffer.byteLength(content), hash: contentHash(content) }], new Date());
    const land = async (rowId: string, content: string) => {
      await RowContentModel.updateOne({ _id: rowId }, { $set: { hash: contentHash(content), data: packContent(content) } });
      await DataSourceRowModel.updateOne({ _id: rowId }, { $set: { contentHash: contentHash(content), bytes: Buffer.byteLength(content) } });
    };
    const stateOf = async (dataSourceId: string, rowId: string) =>
      (await api('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${rowId}`).expect(200)).body;

    it('keeps its entry, so the next sync learns the row', async () => {
      const id = await createDataSource(api);
      await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(3, 'late') }).expect(200);
      await sync(id);
      const [row] = await rowIds(api, id);
      const content = '# Late\n\nWritten while a sync ran.';
      await logUpdate(id, row!.id, content);
      // The sync reads the log, then the row before the write lands: it learns the old content.
      expect(await sync(id)).toMatchObject({ modifiedRows: 0 });
      expect(await logged(id)).toBe(1);
      await land(row!.id, content);
      expect(await sync(id)).toMatchObject({ modifiedRows: 1, unmodifiedRows: 2 });
      expect(await logged(id)).toBe(0);
      expect((await stateOf(id, row!.id)).dataSourceRow).toMatchObject({ state: 'synced', content });
    });

    it('clears an entry whose write never landed once it is older than ten minutes', async () => {
      const id = await createDataSource(api);
      await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows(2, 'lost') }).expect(200);
      await sync(id);
      const [row] = await rowIds(api, id);
      await logUpdate(id, row!.id, '# Never written');
      expect(await sync(id)).toMatchObject({ modifiedRows: 0 });
      expect(await logged(id)).toBe(1);
      await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
      const later = { ...rt.runtime.ctx, clock: { now: () => new Date(Date.now() + 11 * 60_000) } };
      expect(await performSync(later, { dataSourceId: id, run: (await DataSourceModel.findById(id).lean())!.syncRun })).toBe('done');
      expect(await logged(id)).toBe(0);
    });
  });
});
