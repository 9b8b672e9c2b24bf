// 500 row_save_failed (spec "Errors › Data sources"): a storage failure in the middle of adding
// rows leaves none of that request's rows behind. The failure is real: the row id generator is
// made to repeat an id, so the database rejects the second insert with a duplicate key.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { modules } from '../../src/modules.ts';
import { createDataSourcesModule } from '../../src/datasources/index.ts';
import { timeOrderedId } from '../../src/clock.ts';
import { DataSourceRowModel, RowContentModel } from '../../src/datasources/model.ts';
import { createDataSource, rowIds } from './support.ts';

let repeatFrom = Infinity;
let issued: string[] = [];
const flakyIds = () => {
  const id = issued.length >= repeatFrom ? issued[0]! : timeOrderedId();
  issued.push(id);
  return id;
};

describe.each(['1.0', '2.0'] as const)('row save failure on %s', (version) => {
  const rt = useTestRuntime({ worker: false, modules: modules.map((m) => (m.name === 'datasources' ? createDataSourcesModule({ newRowId: flakyIds }) : m)) });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant, version);
  });

  it('answers 500 row_save_failed and keeps none of the rows of the failed request', async () => {
    const id = await createDataSource(api);
    repeatFrom = Infinity;
    await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'kept', content: 'kept' }] }).expect(200);
    issued = [];
    repeatFrom = 2;
    const res = await api('post', '/data-sources/row', { dataSourceId: id, dataSourceRows: [{ name: 'a', content: 'a' }, { name: 'b', content: 'b' }, { name: 'c', content: 'c' }] });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'row_save_failed' });
    repeatFrom = Infinity;
    expect((await rowIds(api, id)).map((r) => r.name)).toEqual(['kept']);
    expect(await DataSourceRowModel.countDocuments({ dataSourceId: id })).toBe(1);
    expect(await RowContentModel.countDocuments({ dataSourceId: id })).toBe(1);
  });
});
