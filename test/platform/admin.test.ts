// The admin API for tenancy: token auth, teams and plans, bots, channels and secret rotation.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { ApiChannelModel, BootstrapClaimModel, TeamModel } from '../../src/platform/model.ts';

describe('admin API', () => {
  const rt = useTestRuntime({ worker: false });

  it('refuses requests without the admin token or with a wrong one', async () => {
    expect((await rt.http().get('/api/admin/teams')).status).toBe(401);
    const wrong = await rt.http().get('/api/admin/teams').set('Authorization', 'Bearer nope-nope-nope-nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, code: 'unauthorized' });
  });

  it('bootstraps a tenant whose credentials open the public API edge', async () => {
    const res = await adminApi(rt)('post', '/bootstrap', { team: 'Acme', bot: 'Helper' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, teamId: expect.any(String), botId: expect.any(String), channelId: expect.any(String) });
    expect(res.body.secretKey).toMatch(/^sk_/);
    const stored = await ApiChannelModel.findOne({ id: res.body.channelId }).lean();
    // Only the hash is stored.
    expect(JSON.stringify(stored)).not.toContain(res.body.secretKey);
  });

  it('refuses a second bootstrap of the same team name with 409, naming the first team, and stores nothing', async () => {
    const admin = adminApi(rt);
    const first = await admin('post', '/bootstrap', {});
    expect(first.status).toBe(201);
    const again = await admin('post', '/bootstrap', { bot: 'Another bot' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, code: 'conflict', message: expect.stringContaining('A team named "My team" already exists'), teamId: first.body.teamId });
    // Concurrent bootstraps of one new name: exactly one wins.
    const racing = await Promise.all([1, 2, 3].map(() => admin('post', '/bootstrap', { team: 'Racing' })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const teams = (await admin('get', '/teams')).body.teams as { name: string }[];
    expect(teams.filter((t) => t.name === 'My team')).toHaveLength(1);
    expect(teams.filter((t) => t.name === 'Racing')).toHaveLength(1);
    const bots = (await admin('get', `/bots?teamId=${first.body.teamId}`)).body.bots as { name: string }[];
    expect(bots.map((b) => b.name)).toEqual(['My bot']);
  });

  it('refuses a name another process is bootstrapping right now, and takes over a claim abandoned half way', async () => {
    const admin = adminApi(rt);
    // Another server (or the offline CLI) holds the claim and has not made the team yet.
    await BootstrapClaimModel.create({ _id: 'Held', createdAt: new Date() });
    const held = await admin('post', '/bootstrap', { team: 'Held' });
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ success: false, code: 'conflict', message: expect.stringContaining('in progress') });
    expect(await TeamModel.countDocuments({ name: 'Held' })).toBe(0);
    // A claim without a team, older than a bootstrap takes: its process died; the name is free again.
    await BootstrapClaimModel.create({ _id: 'Abandoned', createdAt: new Date(0) });
    const taken = await admin('post', '/bootstrap', { team: 'Abandoned' });
    expect(taken.status).toBe(201);
    expect((await BootstrapClaimModel.findById('Abandoned').lean())?.teamId).toBe(taken.body.teamId);
  });

  it('creates teams and bots and lists them', async () => {
    const team = await adminApi(rt)('post', '/teams', { name: 'Beta', plan: 'pro' });
    expect(team.status).toBe(201);
    expect(team.body.team).toMatchObject({ name: 'Beta', plan: 'pro', limits: { dataSourcesPerBot: 25 } });
    const bot = await adminApi(rt)('post', '/bots', { teamId: team.body.team.id, name: 'B1', welcomeMessage: 'Hi!' });
    expect(bot.status).toBe(201);
    expect(bot.body.bot).toMatchObject({ name: 'B1', welcomeMessage: 'Hi!', teamId: team.body.team.id });
    const bots = await adminApi(rt)('get', `/bots?teamId=${team.body.team.id}`);
    expect(bots.body.bots.map((b: { id: string }) => b.id)).toEqual([bot.body.bot.id]);
    const teams = await adminApi(rt)('get', '/teams');
    expect(teams.body.teams.some((t: { id: string }) => t.id === team.body.team.id)).toBe(true);
  });

  it('sets a plan with limit overrides', async () => {
    const team = await adminApi(rt)('post', '/teams', { name: 'Gamma' });
    const res = await adminApi(rt)('put', `/teams/${team.body.team.id}/plan`, { plan: 'enterprise', limits: { dataSourcesPerBot: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.team).toMatchObject({ plan: 'enterprise', limits: { dataSourcesPerBot: 3, storageTokens: 100_000_000 } });
  });

  it('gives 404 for an unknown team and 400 for a bad plan', async () => {
    expect((await adminApi(rt)('post', '/bots', { teamId: '00000000-0000-4000-8000-000000000000', name: 'x' })).status).toBe(404);
    const team = await adminApi(rt)('post', '/teams', { name: 'Delta' });
    const bad = await adminApi(rt)('put', `/teams/${team.body.team.id}/plan`, { plan: 'gold' });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });

  it('rotates a channel secret: the old key stops working and the new one works', async () => {
    const boot = (await adminApi(rt)('post', '/bootstrap', { team: 'Rotating' })).body;
    const rotated = await adminApi(rt)('post', `/channels/${boot.channelId}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secretKey).not.toBe(boot.secretKey);
    const path = `/api/public/channels/${boot.channelId}/2.0/data-sources/list`;
    expect((await rt.http().post(path).set('X-API-Secret-Key', boot.secretKey)).status).toBe(403);
    expect((await rt.http().post(path).set('X-API-Secret-Key', rotated.body.secretKey)).status).toBe(200);
  });

  it('turns a channel off and on', async () => {
    const boot = (await adminApi(rt)('post', '/bootstrap', { team: 'Switching' })).body;
    const off = await adminApi(rt)('put', `/channels/${boot.channelId}/enabled`, { enabled: false });
    expect(off.body.channel).toMatchObject({ channelId: boot.channelId, enabled: false });
    const listed = await adminApi(rt)('get', `/channels?botId=${boot.botId}`);
    expect(listed.body.channels).toEqual([expect.objectContaining({ channelId: boot.channelId, enabled: false })]);
    expect(JSON.stringify(listed.body)).not.toMatch(/secretHash|sk_/);
  });
});
