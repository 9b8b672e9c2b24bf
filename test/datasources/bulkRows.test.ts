// Large row writes in one request (up to the 1,000 rows a request may carry). On FerretDB v1 an
// `update` command holds a SQLite connection per statement until it ends; one command of 100 or
// more statements used to wait forever for a connection of its own pool and locked every writer
// out (docs/FERRETDB.md, "An update that deadlocks"). The database must stay writable after it.
import { beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { connectDatabase, FERRETDB_POOL_SIZE } from '../../src/db/connection.ts';
import { createDataSource, rowIds } from './support.ts';

const ROWS = 250;

describe('a row write of hundreds of rows in one request', () => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let dataSourceId: string;

  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
    dataSourceId = await createDataSource(api);
    const dataSourceRows = Array.from({ length: ROWS }, (_, i) => ({ name: `row-${i}.md`, content: `# Row ${i}\n\nFirst version.` }));
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows }).expect(200);
  });

  it(`updates ${ROWS} rows in one PUT, keeps every change, and leaves the database writable`, async () => {
    const listed = await rowIds(api, dataSourceId);
    expect(listed).toHaveLength(ROWS);

    const edits = listed.map((r) => ({ id: r.id, name: r.name, content: `# ${r.name}\n\nSecond version.` }));
    const put = await api('put', '/data-sources/row', { dataSourceId, dataSourceRows: edits });
    expect(put.status).toBe(200);

    for (const row of [listed[0]!, listed[ROWS - 1]!]) {
      const got = await api('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${row.id}`).expect(200);
      expect(got.body.dataSourceRow.content).toBe(`# ${row.name}\n\nSecond version.`);
    }
    // Another write on another collection still goes through.
    expect((await api('post', '/data-sources')).status).toBe(200);
  });
});

describe('the connection pool', () => {
  const rt = useTestRuntime({ worker: false });

  it('is capped on FerretDB unless MONGODB_URI names a size', async () => {
    const info = await mongoose.connection.db!.admin().command({ buildInfo: 1 });
    const onFerretDb = typeof info.ferretdbVersion === 'string';
    expect(mongoose.connection.getClient().options.maxPoolSize).toBe(onFerretDb ? FERRETDB_POOL_SIZE : 100);

    const uri = new URL(rt.uri);
    uri.searchParams.set('maxPoolSize', '7');
    await mongoose.disconnect();
    await connectDatabase(uri.toString());
    expect(mongoose.connection.getClient().options.maxPoolSize).toBe(7);
  });
});
