// Parallel row writes lose nothing (issue 7): rows are separate documents, so concurrent updates of
// different rows and concurrent adds to one data source all land, even on FerretDB v1, which loses
// concurrent writes to a single document (docs/FERRETDB.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { createDataSource, rowIds } from '../datasources/support.ts';

const PARALLEL = 20;

describe('parallel row writes to one data source', () => {
  const rt = useTestRuntime({ worker: false });
  let api: ReturnType<typeof publicApi>;
  let dsId: string;

  const readRow = async (rowId: string) =>
    (await api('get', `/data-sources/row?dataSourceId=${dsId}&dataSourceRowId=${rowId}`).expect(200)).body.dataSourceRow as { name: string; content: string };

  beforeAll(async () => {
    api = publicApi(rt, await createTenant());
    dsId = await createDataSource(api);
    const seed = Array.from({ length: PARALLEL }, (_, i) => ({ name: `seed-${i}.md`, content: `seed ${i}` }));
    await api('post', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: seed }).expect(200);
  });

  it('keeps every row written by 20 concurrent updates of different rows', async () => {
    const rows = await rowIds(api, dsId);
    expect(rows).toHaveLength(PARALLEL);
    const written = rows.map((r, i) => ({ id: r.id, name: `updated-${i}.md`, content: `update ${i} `.repeat(50 + i) }));
    const results = await Promise.all(written.map((row) => api('put', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [row] })));
    expect(results.map((r) => r.status)).toEqual(written.map(() => 200));

    expect(await rowIds(api, dsId)).toHaveLength(PARALLEL);
    for (const row of written) expect(await readRow(row.id), row.name).toEqual(expect.objectContaining({ name: row.name, content: row.content }));
  });

  it('keeps every row of 20 concurrent adds, with the right count', async () => {
    const before = (await rowIds(api, dsId)).length;
    const added = Array.from({ length: PARALLEL }, (_, i) => [
      { name: `added-${i}-a.md`, content: `added ${i} a` },
      { name: `added-${i}-b.md`, content: `added ${i} b` },
    ]);
    const results = await Promise.all(added.map((dataSourceRows) => api('post', '/data-sources/row', { dataSourceId: dsId, dataSourceRows })));
    expect(results.map((r) => r.status)).toEqual(added.map(() => 200));

    const rows = await rowIds(api, dsId);
    expect(rows).toHaveLength(before + PARALLEL * 2);
    const byName = new Map(rows.map((r) => [r.name, r.id]));
    for (const row of added.flat()) {
      expect(byName.has(row.name), row.name).toBe(true);
      expect((await readRow(byName.get(row.name)!)).content).toBe(row.content);
    }
  });

  it('keeps both updates and adds when they run at the same time', async () => {
    const existing = (await rowIds(api, dsId)).slice(0, PARALLEL);
    const updates = existing.map((r, i) => ({ id: r.id, name: `mixed-${i}.md`, content: `mixed update ${i}` }));
    const adds = Array.from({ length: PARALLEL }, (_, i) => ({ name: `mixed-add-${i}.md`, content: `mixed add ${i}` }));
    const before = (await rowIds(api, dsId)).length;
    const results = await Promise.all([
      ...updates.map((row) => api('put', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [row] })),
      ...adds.map((row) => api('post', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [row] })),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);

    const rows = await rowIds(api, dsId);
    expect(rows).toHaveLength(before + PARALLEL);
    for (const row of updates) expect(await readRow(row.id)).toEqual(expect.objectContaining({ name: row.name, content: row.content }));
    const byName = new Map(rows.map((r) => [r.name, r.id]));
    for (const row of adds) expect((await readRow(byName.get(row.name)!)).content).toBe(row.content);
  });
});
