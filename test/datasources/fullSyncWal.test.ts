// A full sync reads its source in short pages (src/db/pagesById.ts), so the embedded database's WAL
// keeps restarting while it runs: one cursor across the sync held a SQLite read snapshot for all of
// it, and the WAL grew by everything written meanwhile (46 GB while seeding bench/scale.ts at full
// size; docs/FERRETDB.md). Rows written during the scan are learned by this sync or the next.
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { DataSourceModel, DataSourceRowModel } from '../../src/datasources/model.ts';
import { performSync } from '../../src/datasources/sync.job.ts';
import { readCommitted } from '../../src/knowledge/store.ts';
import { createDataSource, rowIds } from './support.ts';

const MiB = 2 ** 20;

describe.skipIf(!!process.env.MONGODB_URI)('a full sync and the embedded database WAL', () => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'enterprise' });
    api = publicApi(rt, tenant);
  });

  it('lets the WAL restart while it reads 6,000 rows under 24 MB of concurrent writes, and rows changed meanwhile are learned by the next sync', async () => {
    const id = await createDataSource(api);
    for (let b = 0; b < 6; b++) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({ name: `r-${b}-${i}.md`, content: `# Row ${b} ${i}\n\nText of row ${b * 1000 + i}.` }));
      await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows }).expect(200);
    }
    const ids = (await rowIds(api, id)).map((r) => r.id);
    const [first, second] = ids;
    const last = ids.at(-1)!;

    const wal = path.join(inject('embeddedDataDir'), `${mongoose.connection.db!.databaseName}.sqlite-wal`);
    const filler = mongoose.connection.db!.collection('walfiller');
    const body = 'x'.repeat(4_000);
    const walSize = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    let beats = 0;
    let written = 0;
    let peak = 0;
    // Each heartbeat of the sync (every 500 rows it chunks) writes 2 MB; the second also changes
    // rows behind the scan (first, second) and ahead of it (last, and a new row).
    const touch = async () => {
      if (++beats === 2) {
        await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [first, last].map((rowId) => ({ id: rowId, name: 'changed.md', content: `# Changed\n\n${rowId}` })) }).expect(200);
        await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: second }] }).expect(200);
        await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'new.md', content: '# New\n\nAdded during the sync.' }] }).expect(200);
      }
      for (let i = 0; i < 5; i++) {
        await filler.insertMany(Array.from({ length: 100 }, () => ({ body })));
        written += 100 * body.length;
        peak = Math.max(peak, walSize());
      }
    };
    const sync = async (hooks = {}) => {
      await api('post', '/data-sources/sync', { dataSourceId: id }).expect(200);
      const { syncRun } = (await DataSourceModel.findById(id).lean())!;
      expect(await performSync(rt.runtime.ctx, { dataSourceId: id, run: syncRun }, hooks)).toBe('done');
      return (await DataSourceModel.findById(id).lean())!.lastResults!;
    };

    // The scan read `second` before its delete and the new row after its insert.
    expect(await sync({ touch })).toMatchObject({ modifiedRows: 6001, totalDataSourceRows: 6001 });
    expect(written).toBeGreaterThan(24 * MiB);
    // SQLite checkpoints at 4 MB of WAL and restarts it once no reader holds an older snapshot
    // (sampled after each write: the patch's restart loop may truncate the file). With one cursor
    // across the scan it passed 20 MB.
    expect(peak).toBeLessThan(10 * MiB);

    // The next sync reads the logged rows: `first` changed after the scan passed it, `second` is gone.
    expect(await sync()).toMatchObject({ modifiedRows: 1, totalDataSourceRows: 6000 });
    const learned = (await readCommitted(id)).rows;
    const current = await DataSourceRowModel.find({ dataSourceId: id }, { contentHash: 1 }).lean<Array<{ _id: string; contentHash: string }>>();
    expect(Object.keys(learned).sort()).toEqual(current.map((r) => r._id).sort());
    expect(current.every((r) => learned[r._id]?.h === r.contentHash)).toBe(true);
  });
});
