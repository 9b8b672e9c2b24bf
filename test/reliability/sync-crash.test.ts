// A worker killed (SIGKILL) in the middle of a data-source sync: the source does not stay
// `syncing`. Another worker takes the run over once the dead worker's job lock expires (or the
// sweep restarts it once its heartbeat is stale) and the source ends synced, with every row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { adminApi, bootstrap, eventually, lockedJob, publicApi, relayCluster, type Relay, type Tenant } from './support/cluster.ts';

/** Enough rows that the sync runs for a while after its job is locked, so the kill lands mid-run. */
const ROWS = 8_000;
const PER_REQUEST = 1_000;

const rowContent = (i: number) =>
  `# Article ${i}\n\n${'Relay keeps the knowledge of the bot in step with its data sources. '.repeat(8)}\n\n## Details ${i}\n\nRow ${i} of the catalogue.`;

describe('a worker killed in the middle of a sync', () => {
  const cluster = relayCluster({ MONGODB_URI: databaseUri(uniqueDatabaseName()), JOB_PROCESS_EVERY_MS: '200' });
  let api: Relay;
  let tenant: Tenant;
  let dataSourceId: string;

  beforeAll(async () => {
    api = await cluster.start('api');
    tenant = await bootstrap(api);
    const pub = publicApi(api, tenant);
    dataSourceId = (await pub('POST', '/data-sources')).body.dataSource.id;
    for (let start = 0; start < ROWS; start += PER_REQUEST) {
      const dataSourceRows = Array.from({ length: PER_REQUEST }, (_, k) => ({ name: `row ${start + k}`, content: rowContent(start + k) }));
      const res = await pub('POST', '/data-sources/row', { dataSourceId, dataSourceRows });
      if (res.status !== 200) throw new Error(`adding rows failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }, 300_000);
  afterAll(async () => {
    await cluster.stopAll();
  });

  it('moves the data source from syncing to synced on a new worker instead of leaving it syncing', { timeout: 400_000 }, async () => {
    const state = async () => (await adminApi(api)('GET', `/bots/${tenant.botId}/data-sources/${dataSourceId}`)).body.dataSource;
    expect((await publicApi(api, tenant)('POST', '/data-sources/sync', { dataSourceId })).status).toBe(200);
    expect((await state()).state).toBe('syncing');

    // The api role only enqueues; the worker locks the job and starts the run, then dies.
    const first = await cluster.start('worker');
    const db = await cluster.db();
    await eventually(async () => (await lockedJob(db, 'datasources.sync'))?.lastModifiedBy === first.agendaName, 120_000, 20);
    await cluster.crash(first);
    // The kill landed mid-run: nothing else could have finished it.
    const afterCrash = await state();
    expect(afterCrash.state).toBe('syncing');
    expect(afterCrash.lastSync).toBeNull();

    await cluster.start('worker');
    const final = await eventually(async () => {
      const ds = await state();
      return ds.state !== 'syncing' && ds;
    }, 300_000, 1000);
    expect(final.state).toBe('synced');
    expect(final.lastResults).toMatchObject({ totalDataSourceRows: ROWS, modifiedRows: ROWS });
  });
});
