// Sync-trigger hooks: created disabled through the admin API, a secret URL on any method, 404 for
// an unknown hook or a wrong, old or deleted secret, 403 when disabled, 429 when already syncing
// or when the team is out of storage tokens. Sync jobs can be held (heldSync.ts) so a source stays
// `syncing` while a test calls the hook again.
import { beforeAll, describe, expect, it } from 'vitest';
import { relayCli, useListeningApp, useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { setTeamPlan } from '../../src/platform/service.ts';
import { SyncClaimModel, SyncHookModel } from '../../src/datasources/model.ts';
import { SYNC_JOB } from '../../src/datasources/sync.ts';
import { createDataSource, getDataSource, waitForSyncEnd } from './support.ts';
import { heldSyncs } from './heldSync.ts';

describe('sync-trigger hooks', () => {
  const held = heldSyncs();
  const rt = useTestRuntime({ env: { HOOKS_BASE_URL: 'https://hooks.example.com/' }, modules: held.modules });
  const cli = relayCli(rt, useListeningApp(rt));
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let admin: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    tenant = await createTenant({ plan: 'enterprise' });
    api = publicApi(rt, tenant);
    admin = adminApi(rt);
  });
  const call = (url: string, method: 'get' | 'post' | 'put' | 'delete' | 'patch' = 'post') => rt.http()[method](new URL(url).pathname);

  const syncJobsOf = async (dataSourceId: string) => (await rt.runtime.ctx.jobs.queryJobs({ name: SYNC_JOB, data: { dataSourceId } })).jobs;

  async function enabledHook(owner = tenant) {
    const own = publicApi(rt, owner);
    const dataSourceId = await createDataSource(own);
    await own('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'a', content: 'Alpha' }] }).expect(200);
    const created = await admin('post', `/bots/${owner.botId}/data-sources/${dataSourceId}/sync-hooks`).expect(201);
    await admin('put', `/bots/${owner.botId}/sync-hooks/${created.body.hook.id}/enabled`, { enabled: true }).expect(200);
    return { dataSourceId, hookId: created.body.hook.id as string, url: created.body.url as string };
  }

  it('creates a disabled hook whose URL is built from HOOKS_BASE_URL and whose secret is stored hashed', async () => {
    const dataSourceId = await createDataSource(api);
    const res = await admin('post', `/bots/${tenant.botId}/data-sources/${dataSourceId}/sync-hooks`).expect(201);
    expect(res.body.hook).toMatchObject({ dataSourceId, botId: tenant.botId, enabled: false });
    expect(res.body.url).toBe(`https://hooks.example.com/api/public/hooks/${res.body.hook.id}/${res.body.secret}`);
    const stored = await SyncHookModel.findById(res.body.hook.id).lean();
    expect(JSON.stringify(stored)).not.toContain(res.body.secret);
    const listed = await admin('get', `/bots/${tenant.botId}/sync-hooks`).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(res.body.secret);
    const disabled = await call(res.body.url);
    expect(disabled.status).toBe(403);
    expect(disabled.body).toMatchObject({ success: false, code: 'hook_disabled' });
    expect((await getDataSource(api, dataSourceId)).state).toBe('not_synced');
  });

  it('queues a sync on any HTTP method once enabled, with any body, and 429s while it runs', async () => {
    const { dataSourceId, url } = await enabledHook();
    held.hold();
    try {
      const first = await call(url, 'put').set('Content-Type', 'application/json').send('not json at all');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ success: true });
      expect((await getDataSource(api, dataSourceId)).state).toBe('syncing');
      const again = await call(url, 'get');
      expect(again.status).toBe(429);
      expect(again.body).toMatchObject({ success: false, code: 'already_syncing' });
      expect(await syncJobsOf(dataSourceId)).toHaveLength(1);
    } finally {
      held.release();
    }
    expect((await waitForSyncEnd(api, dataSourceId)).state).toBe('synced');
    expect((await call(url, 'delete')).status).toBe(200);
    await waitForSyncEnd(api, dataSourceId);
  });

  it('answers 429 when the data source is already syncing', async () => {
    const { dataSourceId, url } = await enabledHook();
    const { DataSourceModel } = await import('../../src/datasources/model.ts');
    await DataSourceModel.updateOne({ _id: dataSourceId }, { $set: { state: 'syncing' } });
    const res = await call(url);
    expect(res.status).toBe(429);
    expect(res.body.success).toBe(false);
  });

  it('answers 429 with success false and queues nothing when the team is out of storage tokens', async () => {
    const broke = await createTenant();
    const { dataSourceId, url } = await enabledHook(broke);
    await setTeamPlan(broke.teamId, 'standard', { storageTokens: 0 });
    const res = await call(url);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 'storage_tokens_exhausted' });
    expect((await getDataSource(publicApi(rt, broke), dataSourceId)).state).toBe('not_synced');
    expect(await syncJobsOf(dataSourceId)).toHaveLength(0);
    expect(await SyncClaimModel.findById(dataSourceId).lean()).toBeNull();
    // The same hook syncs once the team has tokens again: only the budget refused it.
    await setTeamPlan(broke.teamId, 'standard', { storageTokens: 1_000 });
    expect((await call(url)).status).toBe(200);
    expect((await waitForSyncEnd(publicApi(rt, broke), dataSourceId)).state).toBe('synced');
  });

  it('gives the same 404 for a wrong secret, an unknown hook and a malformed id', async () => {
    const { hookId, url } = await enabledHook();
    for (const path of [
      `/api/public/hooks/${hookId}/wrong-secret`,
      `/api/public/hooks/00000000-0000-4000-8000-000000000000/${url.split('/').pop()}`,
      `/api/public/hooks/not-a-uuid/x`,
    ]) {
      const res = await rt.http().post(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'hook_not_found' });
    }
  });

  it('invalidates the old URL when the secret is regenerated, and every URL when the hook is deleted', async () => {
    const { dataSourceId, hookId, url } = await enabledHook();
    const regenerated = await admin('post', `/bots/${tenant.botId}/sync-hooks/${hookId}/secret`).expect(200);
    expect(regenerated.body.url).not.toBe(url);
    expect((await call(url)).status).toBe(404);
    expect((await call(regenerated.body.url)).status).toBe(200);
    await waitForSyncEnd(api, dataSourceId);
    await admin('delete', `/bots/${tenant.botId}/sync-hooks/${hookId}`).expect(200);
    expect((await call(regenerated.body.url)).status).toBe(404);
    expect((await admin('delete', `/bots/${tenant.botId}/sync-hooks/${hookId}`)).status).toBe(404);
  });

  it('disables a hook again and stops syncing through it', async () => {
    const { dataSourceId, hookId, url } = await enabledHook();
    await admin('put', `/bots/${tenant.botId}/sync-hooks/${hookId}/enabled`, { enabled: false }).expect(200);
    expect((await call(url)).status).toBe(403);
    expect((await getDataSource(api, dataSourceId)).state).toBe('not_synced');
  });

  it("keeps another bot's hooks and data sources out of reach in the admin API", async () => {
    const other = await createTenant();
    const { hookId, dataSourceId } = await enabledHook();
    expect((await admin('put', `/bots/${other.botId}/sync-hooks/${hookId}/enabled`, { enabled: false })).status).toBe(404);
    expect((await admin('post', `/bots/${other.botId}/sync-hooks/${hookId}/secret`)).status).toBe(404);
    expect((await admin('post', `/bots/${other.botId}/data-sources/${dataSourceId}/sync-hooks`)).status).toBe(404);
    expect((await admin('patch', `/bots/${other.botId}/data-sources/${dataSourceId}`, { name: 'x' })).status).toBe(404);
    expect((await admin('post', `/bots/${tenant.botId}/data-sources/${dataSourceId}/sync-hooks`.replace(dataSourceId, 'nope'))).status).toBe(400);
  });

  it('renames a data source through the admin API; the public API never shows the name', async () => {
    const dataSourceId = await createDataSource(api);
    const renamed = await admin('patch', `/bots/${tenant.botId}/data-sources/${dataSourceId}`, { name: 'Help centre' }).expect(200);
    expect(renamed.body.dataSource).toMatchObject({ id: dataSourceId, name: 'Help centre' });
    expect((await admin('patch', `/bots/${tenant.botId}/data-sources/${dataSourceId}`, { name: '' })).status).toBe(400);
    expect(await getDataSource(api, dataSourceId)).not.toHaveProperty('name');
  });

  it('manages hooks from the CLI: create, enable, regenerate, disable, delete', { timeout: 120_000 }, async () => {
    const dataSourceId = await createDataSource(api);
    // The URL is the server's (its HOOKS_BASE_URL), whatever the shell says.
    const relay = async (...args: string[]) => JSON.parse((await cli(...args)).stdout);
    const created = await relay('sync-hooks', 'create', '--bot', tenant.botId, '--data-source', dataSourceId);
    expect(created.hook.enabled).toBe(false);
    expect(created.url).toBe(`https://hooks.example.com/api/public/hooks/${created.hook.id}/${created.secret}`);
    expect((await relay('sync-hooks', 'enable', created.hook.id, '--bot', tenant.botId)).enabled).toBe(true);
    const regenerated = await relay('sync-hooks', 'regenerate-secret', created.hook.id, '--bot', tenant.botId);
    expect(regenerated.secret).not.toBe(created.secret);
    expect((await call(`https://x${new URL(created.url).pathname}`)).status).toBe(404);
    expect((await relay('sync-hooks', 'disable', created.hook.id, '--bot', tenant.botId)).enabled).toBe(false);
    expect((await relay('data-sources', 'rename', dataSourceId, '--bot', tenant.botId, '--name', 'Docs')).name).toBe('Docs');
    expect((await relay('sync-hooks', 'delete', created.hook.id, '--bot', tenant.botId)).success).toBe(true);
    expect(await relay('sync-hooks', 'list', '--bot', tenant.botId)).not.toContainEqual(expect.objectContaining({ id: created.hook.id }));
  });
});
