// Admin API for tenancy: teams, plans, bots and API channels (secrets shown once).
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { validate } from '../http/validate.ts';
import * as platform from './service.ts';
import { presentBot, presentChannel, presentTeam } from './presenters.ts';
import { BootstrapSchema, BotCreateSchema, BotUpdateSchema, ChannelCreateSchema, ChannelEnabledSchema, TeamCreateSchema, TeamPlanSchema } from './schema.ts';

export function platformAdminRoutes(router: Router, ctx: AppContext): void {
  router.post('/bootstrap', validate(BootstrapSchema), async (c) => {
    c.status = 201;
    c.body = { success: true, ...(await platform.bootstrapTenant(c.state.input, ctx.clock.now())) };
  });

  router.post('/teams', validate(TeamCreateSchema), async (c) => {
    c.status = 201;
    c.body = { success: true, team: presentTeam(await platform.createTeam(c.state.input), ctx.planLimits) };
  });
  router.get('/teams', async (c) => {
    const teams = await platform.listTeams();
    c.body = { success: true, teams: teams.map((t) => presentTeam(t, ctx.planLimits)) };
  });
  router.get('/teams/:teamId', async (c) => {
    c.body = { success: true, team: presentTeam(await platform.getTeam(c.params.teamId!), ctx.planLimits) };
  });
  router.put('/teams/:teamId/plan', validate(TeamPlanSchema), async (c) => {
    const { plan, limits } = c.state.input;
    c.body = { success: true, team: presentTeam(await platform.setTeamPlan(c.params.teamId!, plan, limits), ctx.planLimits) };
  });

  router.post('/bots', validate(BotCreateSchema), async (c) => {
    const { teamId, ...input } = c.state.input;
    c.status = 201;
    c.body = { success: true, bot: presentBot(await platform.createBot(teamId, input)) };
  });
  router.get('/bots', async (c) => {
    const teamId = typeof c.query.teamId === 'string' ? c.query.teamId : undefined;
    c.body = { success: true, bots: (await platform.listBots(teamId)).map(presentBot) };
  });
  router.get('/bots/:botId', async (c) => {
    c.body = { success: true, bot: presentBot(await platform.getBot(c.params.botId!)) };
  });
  router.patch('/bots/:botId', validate(BotUpdateSchema), async (c) => {
    c.body = { success: true, bot: presentBot(await platform.updateBot(c.params.botId!, c.state.input)) };
  });

  router.post('/channels', validate(ChannelCreateSchema), async (c) => {
    const { channel, secretKey } = await platform.createApiChannel(c.state.input.botId, c.state.input.name);
    c.status = 201;
    c.body = { success: true, channel: presentChannel(channel), secretKey };
  });
  router.get('/channels', async (c) => {
    const botId = typeof c.query.botId === 'string' ? c.query.botId : undefined;
    c.body = { success: true, channels: (await platform.listApiChannels(botId)).map(presentChannel) };
  });
  router.post('/channels/:channelId/rotate', async (c) => {
    const { channel, secretKey } = await platform.rotateChannelSecret(c.params.channelId!);
    c.body = { success: true, channel: presentChannel(channel), secretKey };
  });
  router.put('/channels/:channelId/enabled', validate(ChannelEnabledSchema), async (c) => {
    c.body = { success: true, channel: presentChannel(await platform.setChannelEnabled(c.params.channelId!, c.state.input.enabled)) };
  });
}
