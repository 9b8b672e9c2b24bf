// Bad input and other tenants' ids on every data-source endpoint, both versions: missing fields and
// non-UUID ids are 400, operator objects (NoSQL injection) are 400, another bot's data source or
// row is 404 and changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { createDataSource, getDataSource, rowIds } from './support.ts';

type Call = [method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown];

describe.each(['1.0', '2.0'] as const)('data sources API input and tenancy on %s', (version) => {
  const rt = useTestRuntime();
  let mine: Tenant;
  let theirs: Tenant;
  let api: ReturnType<typeof publicApi>;
  let theirApi: ReturnType<typeof publicApi>;
  let dsId: string;
  let theirDs: string;
  let theirRow: string;

  beforeAll(async () => {
    [mine, theirs] = [await createTenant(), await createTenant()];
    api = publicApi(rt, mine, version);
    theirApi = publicApi(rt, theirs, version);
    dsId = await createDataSource(api);
    theirDs = await createDataSource(theirApi);
    await theirApi('post', '/data-sources/row', { dataSourceId: theirDs, dataSourceRows: [{ name: 'secret.md', content: 'theirs' }] }).expect(200);
    theirRow = (await rowIds(theirApi, theirDs))[0]!.id;
  });

  const withId = (id: unknown): Call[] => [
    ['get', `/data-sources?dataSourceId=${id}`],
    ['put', '/data-sources', { dataSourceId: id, syncInterval: 'day' }],
    ['delete', '/data-sources', { dataSourceId: id }],
    ['post', '/data-sources/sync', { dataSourceId: id }],
    ['post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'x', content: 'x' }] }],
    ['post', '/data-sources/row/list', { dataSourceId: id }],
    ['put', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: theirRow, name: 'x', content: 'x' }] }],
    ['delete', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ id: theirRow }] }],
  ];

  it('gives 400 with success false for a missing or non-UUID data source id on every endpoint', async () => {
    for (const [method, path, body] of [...withId('not-a-uuid'), ['get', '/data-sources'] as Call, ['post', '/data-sources/row/list', {}] as Call]) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  it('gives 400 for operator objects and arrays in place of ids, in bodies and query strings', async () => {
    const injections: Call[] = [
      ['get', '/data-sources?dataSourceId[$ne]=x'],
      ['get', `/data-sources?dataSourceId=${dsId}&dataSourceId=${theirDs}`],
      ['get', `/data-sources/row?dataSourceId=${dsId}&dataSourceRowId[$gt]=`],
      ['put', '/data-sources', { dataSourceId: { $ne: null } }],
      ['delete', '/data-sources', { dataSourceId: { $gt: '' } }],
      ['post', '/data-sources/sync', { dataSourceId: [dsId] }],
      ['post', '/data-sources/row/list', { dataSourceId: { $regex: '.*' } }],
      ['put', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [{ id: { $ne: null }, name: 'x', content: 'x' }] }],
      ['delete', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [{ id: { $exists: true } }] }],
      ['post', '/data-sources/list', { cursor: { $gt: '' } }],
    ];
    for (const [method, path, body] of injections) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await rowIds(theirApi, theirDs)).length).toBe(1);
  });

  it('gives 400 for missing or mistyped row fields', async () => {
    const bad: unknown[] = [
      { dataSourceId: dsId },
      { dataSourceId: dsId, dataSourceRows: [] },
      { dataSourceId: dsId, dataSourceRows: 'rows' },
      { dataSourceId: dsId, dataSourceRows: [{ name: 'x' }] },
      { dataSourceId: dsId, dataSourceRows: [{ content: 'x' }] },
      { dataSourceId: dsId, dataSourceRows: [{ name: 1, content: 'x' }] },
    ];
    for (const body of bad) expect((await api('post', '/data-sources/row', body)).status, JSON.stringify(body)).toBe(400);
    expect((await api('put', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [{ name: 'x', content: 'x' }] })).status).toBe(400);
    expect((await api('delete', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [{}] })).status).toBe(400);
    expect((await api('get', `/data-sources/row?dataSourceId=${dsId}`)).status).toBe(400);
  });

  it("gives 404 for another bot's data source on every endpoint and leaves it untouched", async () => {
    for (const [method, path, body] of withId(theirDs)) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'data_source_not_found' });
    }
    expect((await api('get', `/data-sources/row?dataSourceId=${theirDs}&dataSourceRowId=${theirRow}`)).status).toBe(404);
    const ds = await getDataSource(theirApi, theirDs);
    expect(ds).toMatchObject({ state: 'not_synced', syncInterval: null });
    const row = await theirApi('get', `/data-sources/row?dataSourceId=${theirDs}&dataSourceRowId=${theirRow}`).expect(200);
    expect(row.body.dataSourceRow).toMatchObject({ name: 'secret.md', content: 'theirs' });
    expect((await api('post', '/data-sources/list')).body.dataSources.map((d: { id: string }) => d.id)).not.toContain(theirDs);
  });

  it("answers another bot's source as missing whatever the reads beside it found: its row, its page, a cursor its list lacks", async () => {
    // The page, its count and a row are read beside the source (one wait): the source decides first.
    const calls: Call[] = [
      ['get', `/data-sources/row?dataSourceId=${theirDs}&dataSourceRowId=${theirRow}`],
      ['post', '/data-sources/row/list', { dataSourceId: theirDs, limit: 100 }],
      ['post', '/data-sources/row/list', { dataSourceId: theirDs, cursor: theirRow }],
      ['post', '/data-sources/row/list', { dataSourceId: theirDs, cursor: '00000000-0000-4000-8000-000000000000' }],
      ['post', '/data-sources/row/list', { dataSourceId: '00000000-0000-4000-8000-000000000000', cursor: theirRow }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(method, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'data_source_not_found', message: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain('secret.md');
    }
    // Their own cursor on their own list still pages, and one not in it is still refused.
    expect((await theirApi('post', '/data-sources/row/list', { dataSourceId: theirDs, cursor: theirRow }).expect(200)).body.pagination).toEqual({ total: 1, last: null });
    const bad = await theirApi('post', '/data-sources/row/list', { dataSourceId: theirDs, cursor: '00000000-0000-4000-8000-000000000000' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'invalid_cursor' });
  });

  it("gives 404 for another bot's row through my own data source and leaves it untouched", async () => {
    expect((await api('get', `/data-sources/row?dataSourceId=${dsId}&dataSourceRowId=${theirRow}`)).status).toBe(404);
    const update = await api('put', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [{ id: theirRow, name: 'x', content: 'x' }] });
    expect(update.status).toBe(404);
    expect(update.body.success).toBe(false);
    await api('delete', '/data-sources/row', { dataSourceId: dsId, dataSourceRows: [{ id: theirRow }] }).expect(200);
    expect(await rowIds(theirApi, theirDs)).toEqual([{ id: theirRow, name: 'secret.md' }]);
  });

  it('answers 403 for a wrong key before looking at the data source', async () => {
    const res = await publicApi(rt, { ...mine, secretKey: 'sk_wrong' }, version)('get', `/data-sources?dataSourceId=${dsId}`);
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
  });
});
