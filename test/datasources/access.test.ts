// Channel access on every data-source endpoint, both versions (spec "Authentication" 1 and
// "Errors › Data sources"): a wrong, missing or other channel's key is 403; an unknown channel or
// one turned off through the admin service is 404; always with success false and nothing changed.
// Each call is one that succeeds with the channel's own key, so only the access check refuses it.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { INTERVAL_JOB } from '../../src/datasources/interval.ts';
import { SYNC_JOB } from '../../src/datasources/sync.ts';
import { createDataSource, getDataSource, rowIds } from './support.ts';

type Call = [method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object];

/** Every endpoint of the spec's data sources table, with a request that is valid for this source. */
const everyEndpoint = (dataSourceId: string, rowId: string): Call[] => [
  ['post', '/data-sources'],
  ['post', '/data-sources/list', {}],
  ['get', `/data-sources?dataSourceId=${dataSourceId}`],
  ['put', '/data-sources', { dataSourceId, syncInterval: 'day' }],
  ['delete', '/data-sources', { dataSourceId }],
  ['post', '/data-sources/sync', { dataSourceId }],
  ['post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'added', content: 'added' }] }],
  ['post', '/data-sources/row/list', { dataSourceId }],
  ['get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${rowId}`],
  ['put', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: rowId, name: 'changed', content: 'changed' }] }],
  ['delete', '/data-sources/row', { dataSourceId, dataSourceRows: [{ id: rowId }] }],
];

interface Refusal {
  who: string;
  status: 403 | 404;
  code: string;
  /** Channel id and key to call with; undefined key sends no header. */
  access: () => { channelId: string; key: string | undefined };
  /** Turns the channel off around the calls. */
  channelOff?: boolean;
}

describe.each(['1.0', '2.0'] as const)('channel access on every data-source endpoint on %s', (version) => {
  const rt = useTestRuntime({ worker: false });
  let tenant: Tenant;
  let other: Tenant;
  let api: ReturnType<typeof publicApi>;
  let dataSourceId: string;
  let rowId: string;
  beforeAll(async () => {
    [tenant, other] = [await createTenant(), await createTenant()];
    api = publicApi(rt, tenant, version);
    dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'kept.md', content: 'Kept as it was.' }] }).expect(200);
    rowId = (await rowIds(api, dataSourceId))[0]!.id;
  });

  const refusals: Refusal[] = [
    { who: 'a wrong key', status: 403, code: 'forbidden', access: () => ({ channelId: tenant.channelId, key: 'sk_wrong' }) },
    { who: 'no key', status: 403, code: 'forbidden', access: () => ({ channelId: tenant.channelId, key: undefined }) },
    { who: "another channel's key", status: 403, code: 'forbidden', access: () => ({ channelId: tenant.channelId, key: other.secretKey }) },
    { who: 'an unknown channel id', status: 404, code: 'channel_not_found', access: () => ({ channelId: '00000000-0000-4000-8000-000000000000', key: tenant.secretKey }) },
    { who: 'a channel turned off through the admin service', status: 404, code: 'channel_not_found', access: () => ({ channelId: tenant.channelId, key: tenant.secretKey }), channelOff: true },
  ];

  const setChannelEnabled = (enabled: boolean) => adminApi(rt)('put', `/channels/${tenant.channelId}/enabled`, { enabled }).expect(200);

  it.each(refusals)('answers $status with success false to $who on every endpoint and changes nothing', async ({ status, code, access, channelOff }) => {
    const { channelId, key } = access();
    if (channelOff) await setChannelEnabled(false);
    try {
      for (const [method, path, body] of everyEndpoint(dataSourceId, rowId)) {
        let req = rt.http()[method](`/api/public/channels/${channelId}/${version}${path}`);
        if (key !== undefined) req = req.set('X-API-Secret-Key', key);
        const res = await (body === undefined ? req : req.send(body));
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(res.body, `${method} ${path}`).toMatchObject({ success: false, code });
      }
    } finally {
      if (channelOff) await setChannelEnabled(true);
    }
    const list = await api('post', '/data-sources/list').expect(200);
    expect(list.body.pagination.total).toBe(1);
    expect(await getDataSource(api, dataSourceId)).toMatchObject({ state: 'not_synced', syncInterval: null });
    expect(await rowIds(api, dataSourceId)).toEqual([{ id: rowId, name: 'kept.md' }]);
    const row = await api('get', `/data-sources/row?dataSourceId=${dataSourceId}&dataSourceRowId=${rowId}`).expect(200);
    expect(row.body.dataSourceRow.content).toBe('Kept as it was.');
    const jobs = await rt.runtime.ctx.jobs.queryJobs({ names: [SYNC_JOB, INTERVAL_JOB], data: { dataSourceId } });
    expect(jobs.jobs).toHaveLength(0);
  });

  it("answers 200 on every endpoint of the same table with the channel's own key", async () => {
    const scratch = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId: scratch, dataSourceRows: [{ name: 'scratch', content: 'scratch' }] }).expect(200);
    const scratchRow = (await rowIds(api, scratch))[0]!.id;
    // The data source delete goes last, so every call before it still finds the source.
    const calls = everyEndpoint(scratch, scratchRow);
    const order = [...calls.filter(([m, p]) => !(m === 'delete' && p === '/data-sources')), calls.find(([m, p]) => m === 'delete' && p === '/data-sources')!];
    for (const [method, path, body] of order) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(res.body.success).toBe(true);
    }
  });
});
