// The eleven data-source endpoints of the spec, on both versions: fields, paging, statuses and
// the not-found rules (missing, another bot's). Sync behaviour lives in sync.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { setTeamPlan } from '../../src/platform/service.ts';
import { createDataSource, getDataSource, rowIds, syncAndWait } from './support.ts';
import { commandsSent } from '../helpers/dbReads.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(['1.0', '2.0'] as const)('data sources API on %s', (version) => {
  const rt = useTestRuntime({ monitorCommands: true });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'pro' });
    api = publicApi(rt, tenant, version);
  });

  it('creates an empty manual data source with exactly the spec fields', async () => {
    const res = await api('post', '/data-sources').expect(200);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.dataSource).sort()).toEqual(['createdAt', 'id', 'lastSync', 'state', 'syncInterval', 'type']);
    expect(res.body.dataSource).toMatchObject({ type: 'MANUAL', state: 'not_synced', lastSync: null, syncInterval: null });
    expect(res.body.dataSource.createdAt).toMatch(ISO);
  });

  it('lists data sources oldest first in pages, with the total on the bot', async () => {
    const t = await createTenant({ plan: 'pro' });
    const own = publicApi(rt, t, version);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await createDataSource(own));
    const first = await own('post', '/data-sources/list', { limit: 2 }).expect(200);
    expect(first.body.dataSources.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ total: 3, last: ids[1] });
    const second = await own('post', '/data-sources/list', { limit: 2, cursor: first.body.pagination.last }).expect(200);
    expect(second.body.dataSources.map((d: { id: string }) => d.id)).toEqual([ids[2]]);
    const empty = await own('post', '/data-sources/list', { cursor: ids[2] }).expect(200);
    expect(empty.body).toEqual({ success: true, dataSources: [], pagination: { total: 3, last: null } });
    const defaults = await own('post', '/data-sources/list').expect(200);
    expect(defaults.body.dataSources).toHaveLength(3);
  });

  it('rejects a page size outside 1 to 100 with 400', async () => {
    for (const limit of [0, 101, 'x', 1.5]) expect((await api('post', '/data-sources/list', { limit })).status).toBe(400);
  });

  it('reads one data source by query string, and 404s a missing one', async () => {
    const id = await createDataSource(api);
    expect((await getDataSource(api, id)).id).toBe(id);
    const missing = await api('get', `/data-sources?dataSourceId=${MISSING}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, code: 'data_source_not_found' });
  });

  it('sets the sync interval, answering the data source as it was before, and clears it when omitted', async () => {
    const id = await createDataSource(api);
    const set = await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'week' }).expect(200);
    expect(set.body.dataSource).toMatchObject({ id, syncInterval: null });
    expect((await getDataSource(api, id)).syncInterval).toBe('week');
    const change = await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'month' }).expect(200);
    expect(change.body.dataSource.syncInterval).toBe('week');
    const cleared = await api('put', '/data-sources', { dataSourceId: id }).expect(200);
    expect(cleared.body.dataSource.syncInterval).toBe('month');
    expect((await getDataSource(api, id)).syncInterval).toBeNull();
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }).expect(200);
    await api('put', '/data-sources', { dataSourceId: id, syncInterval: null }).expect(200);
    expect((await getDataSource(api, id)).syncInterval).toBeNull();
    expect((await api('put', '/data-sources', { dataSourceId: id, syncInterval: 'hour' })).status).toBe(400);
  });

  it('deletes a data source and its rows; it is then 404 everywhere', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'A' }] }).expect(200);
    const [row] = await rowIds(api, id);
    expect(await api('delete', '/data-sources', { dataSourceId: id }).expect(200)).toHaveProperty('body', { success: true });
    expect((await api('get', `/data-sources?dataSourceId=${id}`)).status).toBe(404);
    expect((await api('get', `/data-sources/row?dataSourceId=${id}&dataSourceRowId=${row!.id}`)).status).toBe(404);
    expect((await api('post', '/data-sources/row/list', { dataSourceId: id })).status).toBe(404);
    expect((await api('delete', '/data-sources', { dataSourceId: id })).status).toBe(404);
    expect((await api('post', '/data-sources/sync', { dataSourceId: id })).status).toBe(404);
  });

  it('adds rows without returning ids, lists id and name only, and reads one row with every field', async () => {
    const id = await createDataSource(api);
    const added = await api('post', '/data-sources/row', {
      dataSourceId: id,
      dataSourceRows: [
        { name: 'first.md', content: '# First\n\nOne.' },
        { name: 'second.md', content: '# Second\n\nTwo.' },
      ],
    }).expect(200);
    expect(added.body).toEqual({ success: true });
    const list = await api('post', '/data-sources/row/list', { dataSourceId: id }).expect(200);
    expect(list.body.dataSourceRows.map((r: object) => Object.keys(r).sort())).toEqual([['id', 'name'], ['id', 'name']]);
    expect(list.body.dataSourceRows.map((r: { name: string }) => r.name)).toEqual(['first.md', 'second.md']);
    expect(list.body.pagination).toEqual({ total: 2, last: list.body.dataSourceRows[1].id });
    const one = await api('get', `/data-sources/row?dataSourceId=${id}&dataSourceRowId=${list.body.dataSourceRows[0].id}`).expect(200);
    expect(one.body.dataSourceRow).toEqual({
      id: list.body.dataSourceRows[0].id,
      name: 'first.md',
      content: '# First\n\nOne.',
      type: 'MANUAL',
      state: 'not_synced',
      lastSync: null,
      lastModified: expect.stringMatching(ISO),
      createdAt: expect.stringMatching(ISO),
    });
  });

  it('pages rows oldest first with total = rows in the data source', async () => {
    const id = await createDataSource(api);
    const rows = Array.from({ length: 25 }, (_, i) => ({ name: `r${String(i).padStart(2, '0')}`, content: `Row ${i}` }));
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: rows }).expect(200);
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const res = await api('post', '/data-sources/row/list', { dataSourceId: id, limit: 10, ...(cursor ? { cursor } : {}) }).expect(200);
      expect(res.body.pagination.total).toBe(25);
      names.push(...res.body.dataSourceRows.map((r: { name: string }) => r.name));
      cursor = res.body.pagination.last;
    }
    expect(names).toEqual(rows.map((r) => r.name));
  });

  it("pages one source's rows when another source's rows were written between them, reading the rows twice per page", async () => {
    const [mine, other] = [await createDataSource(api), await createDataSource(api)];
    const names: string[] = [];
    for (let i = 0; i < 7; i++) {
      names.push(`m${i}`);
      await api('post', '/data-sources/row', { dataSourceId: mine, dataSourceRows: [{ name: `m${i}`, content: 'x' }] }).expect(200);
      await api('post', '/data-sources/row', { dataSourceId: other, dataSourceRows: [{ name: `o${i}`, content: 'x' }] }).expect(200);
    }
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const body = { dataSourceId: mine, limit: 3, ...(cursor ? { cursor } : {}) };
      let res: { body: { pagination: { total: number; last: string | null }; dataSourceRows: Array<{ name: string }> } } | undefined;
      const sent = await commandsSent(async () => (res = await api('post', '/data-sources/row/list', body).expect(200)));
      // The channel, the source, the page and its count (the `count` command, not an aggregation);
      // a cursor is checked by the page itself, with no lookup apart.
      // (The worker's job polls may fall in the window: only the request's collections are compared.)
      expect(sent.filter((c) => !c.includes('agenda'))).toEqual(['count datasourcerows', 'find apichannels', 'find datasourcerows', 'find datasources']);
      expect(res!.body.pagination.total).toBe(7);
      seen.push(...res!.body.dataSourceRows.map((r) => r.name));
      cursor = res!.body.pagination.last;
    } while (cursor && seen.length < 20);
    expect(seen).toEqual(names);
  });

  it('updates name and content of rows, and the row shows the change', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'old' }] }).expect(200);
    const [row] = await rowIds(api, id);
    await api('put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: row!.id, name: 'b', content: 'new' }] }).expect(200);
    const read = await api('get', `/data-sources/row?dataSourceId=${id}&dataSourceRowId=${row!.id}`).expect(200);
    expect(read.body.dataSourceRow).toMatchObject({ name: 'b', content: 'new' });
  });

  it('refuses an update naming a row of another data source with 404 and writes nothing, not even the valid rows', async () => {
    const id = await createDataSource(api);
    const other = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'mine', content: 'mine' }] }).expect(200);
    await api('post', '/data-sources/row', { dataSourceId: other, dataSourceRows: [{ name: 'theirs', content: 'theirs' }] }).expect(200);
    const [mine] = await rowIds(api, id);
    const [theirs] = await rowIds(api, other);
    const res = await api('put', '/data-sources/row', {
      dataSourceId: id,
      dataSourceRows: [
        { id: mine!.id, name: 'changed', content: 'changed' },
        { id: theirs!.id, name: 'x', content: 'x' },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'data_source_row_not_found', dataSourceRowIds: [theirs!.id] });
    const read = await api('get', `/data-sources/row?dataSourceId=${id}&dataSourceRowId=${mine!.id}`).expect(200);
    expect(read.body.dataSourceRow).toMatchObject({ name: 'mine', content: 'mine' });
    const theirsRead = await api('get', `/data-sources/row?dataSourceId=${other}&dataSourceRowId=${theirs!.id}`).expect(200);
    expect(theirsRead.body.dataSourceRow).toMatchObject({ name: 'theirs', content: 'theirs' });
  });

  it('deletes rows and skips ids that do not exist', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'a' }, { name: 'b', content: 'b' }] }).expect(200);
    const [a, b] = await rowIds(api, id);
    await api('delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: a!.id }, { id: MISSING }] }).expect(200);
    expect(await rowIds(api, id)).toEqual([b]);
    expect((await api('get', `/data-sources/row?dataSourceId=${id}&dataSourceRowId=${a!.id}`)).status).toBe(404);
  });

  it('starts a sync that returns at once and ends synced with lastSync set', async () => {
    const id = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: '# A\n\nAlpha.' }] }).expect(200);
    const done = await syncAndWait(api, id);
    expect(done.state).toBe('synced');
    expect(done.lastSync).toMatch(ISO);
  });

  it('refuses a data source over the plan limit with 429', async () => {
    const t = await createTenant();
    await setTeamPlan(t.teamId, 'standard', { dataSourcesPerBot: 2 });
    const own = publicApi(rt, t, version);
    await createDataSource(own);
    await createDataSource(own);
    const res = await own('post', '/data-sources');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 'data_source_limit_reached' });
    expect((await own('post', '/data-sources/list')).body.pagination.total).toBe(2);
  });
});
