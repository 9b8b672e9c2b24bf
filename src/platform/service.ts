// Teams, bots and API channels: the operations behind the admin API, the CLI and the public edge's auth.
import { AppError } from '../http/errors.ts';
import { newId } from '../clock.ts';
import { generateSecret, hashSecret, secretMatchesHash } from '../security/secrets.ts';
import { ApiChannelModel, BootstrapClaimModel, BotModel, TeamModel, type ApiChannel, type Bot, type Team } from './model.ts';
import { type PlanLimits, type PlanName } from '../plans.ts';

export interface TeamInput {
  name: string;
  plan?: PlanName;
}
export interface BotInput {
  name: string;
  instructions?: string;
  welcomeMessage?: string;
  maxMessageLength?: number | null;
  powerUps?: string[];
}

export async function createTeam(input: TeamInput): Promise<Team> {
  const team = await TeamModel.create({ id: newId(), name: input.name, plan: input.plan ?? 'standard' });
  return team.toObject();
}

export async function listTeams(): Promise<Team[]> {
  return TeamModel.find().sort({ _id: 1 }).lean();
}

export async function getTeam(teamId: string): Promise<Team> {
  const team = await TeamModel.findOne({ id: teamId }).lean();
  if (!team) throw new AppError('team_not_found', 'Team not found');
  return team;
}

export async function setTeamPlan(teamId: string, plan: PlanName, limits?: Partial<PlanLimits>): Promise<Team> {
  const update: Record<string, unknown> = { plan };
  for (const [key, value] of Object.entries(limits ?? {})) update[`limits.${key}`] = value;
  const team = await TeamModel.findOneAndUpdate({ id: teamId }, { $set: update }, { returnDocument: 'after' }).lean();
  if (!team) throw new AppError('team_not_found', 'Team not found');
  return team;
}

export async function createBot(teamId: string, input: BotInput): Promise<Bot> {
  await getTeam(teamId);
  const bot = await BotModel.create({ id: newId(), teamId, ...input });
  return bot.toObject();
}

export async function listBots(teamId?: string): Promise<Bot[]> {
  return BotModel.find(teamId ? { teamId } : {}).sort({ _id: 1 }).lean();
}

export async function getBot(botId: string): Promise<Bot> {
  const bot = await BotModel.findOne({ id: botId }).lean();
  if (!bot) throw new AppError('bot_not_found', 'Bot not found');
  return bot;
}

export async function updateBot(botId: string, input: Partial<BotInput>): Promise<Bot> {
  const bot = await BotModel.findOneAndUpdate({ id: botId }, { $set: input }, { returnDocument: 'after' }).lean();
  if (!bot) throw new AppError('bot_not_found', 'Bot not found');
  return bot;
}

export interface IssuedChannel {
  channel: ApiChannel;
  /** Shown once; only its hash is stored. */
  secretKey: string;
}

export async function createApiChannel(botId: string, name = 'API'): Promise<IssuedChannel> {
  const bot = await getBot(botId);
  const secretKey = generateSecret('sk_');
  const channel = await ApiChannelModel.create({
    id: newId(),
    botId,
    teamId: bot.teamId,
    name,
    secretHash: hashSecret(secretKey),
  });
  return { channel: channel.toObject(), secretKey };
}

export async function listApiChannels(botId?: string): Promise<ApiChannel[]> {
  return ApiChannelModel.find(botId ? { botId } : {}).sort({ _id: 1 }).lean();
}

export async function rotateChannelSecret(channelId: string): Promise<IssuedChannel> {
  const secretKey = generateSecret('sk_');
  const channel = await ApiChannelModel.findOneAndUpdate(
    { id: channelId },
    { $set: { secretHash: hashSecret(secretKey) } },
    { returnDocument: 'after' },
  ).lean();
  if (!channel) throw new AppError('channel_not_found', 'Channel not found');
  return { channel, secretKey };
}

export async function setChannelEnabled(channelId: string, enabled: boolean): Promise<ApiChannel> {
  const channel = await ApiChannelModel.findOneAndUpdate({ id: channelId }, { $set: { enabled } }, { returnDocument: 'after' }).lean();
  if (!channel) throw new AppError('channel_not_found', 'Channel not found');
  return channel;
}

export interface ChannelAccess {
  channel: ApiChannel;
  bot: Bot;
  team: Team;
}

/**
 * Authenticates a public API call (spec "Authentication" 1): an unknown or turned-off channel is 404,
 * a key that does not match this channel is 403. Only the channel is read, fresh on every request, so
 * a rotated key or a turned-off channel is refused at once by every process; the bot and the team
 * are read by the routes that use more than their ids (`channelTenant`), not by every list and get.
 */
export async function authenticateChannel(channelId: string, secretKey: string | undefined): Promise<ApiChannel> {
  const channel = await ApiChannelModel.findOne({ id: channelId }).lean();
  if (!channel || !channel.enabled) throw new AppError('channel_not_found', 'Channel not found');
  if (!secretKey) throw new AppError('forbidden', 'The X-API-Secret-Key header is required');
  if (!secretMatchesHash(secretKey, channel.secretHash)) {
    throw new AppError('forbidden', 'The secret key does not match this channel');
  }
  return channel;
}

/** A channel of `botId` that is on, for a caller the admin token let in (the console): 404 otherwise, with no key asked for. */
export async function channelOfBot(botId: string, channelId: string): Promise<ApiChannel> {
  const channel = await ApiChannelModel.findOne({ id: channelId }).lean();
  if (!channel || !channel.enabled || channel.botId !== botId) throw new AppError('channel_not_found', 'Channel not found');
  return channel;
}

/** The bot and team behind an authenticated channel, as they are now (usage counters included). */
export async function channelTenant(channel: ApiChannel): Promise<ChannelAccess> {
  const [bot, team] = await Promise.all([BotModel.findOne({ id: channel.botId }).lean(), TeamModel.findOne({ id: channel.teamId }).lean()]);
  if (!bot || !team) throw new AppError('channel_not_found', 'Channel not found');
  return { channel, bot, team };
}

export interface TenantInput {
  team?: string;
  bot?: string;
  plan?: PlanName;
}

/** A team, a bot and an API channel, without looking for a namesake: fixtures and benchmarks make many. */
export async function provisionTenant(input: TenantInput = {}) {
  const team = await createTeam({ name: input.team ?? 'My team', plan: input.plan });
  const bot = await createBot(team.id, { name: input.bot ?? 'My bot' });
  const { channel, secretKey } = await createApiChannel(bot.id);
  return { teamId: team.id, botId: bot.id, channelId: channel.id, secretKey };
}

/** A claim without a team this old is a bootstrap that died half way; it no longer holds the name. */
export const STALE_BOOTSTRAP_CLAIM_MS = 60_000;

const nameTaken = (name: string, teamId?: string | null) =>
  new AppError(
    'conflict',
    teamId
      ? `A team named "${name}" already exists (${teamId}): bootstrap has run before. Its channel key is shown only once; ` +
          'list its channels and rotate one for a new key, or bootstrap with another team name'
      : `A bootstrap of the team "${name}" is in progress; list the teams in a moment, or bootstrap with another team name`,
    teamId ? { teamId } : {},
  );

/** Claims `name` for this bootstrap, or throws the 409 that says who holds it. */
async function claimTeamName(name: string, now: Date): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await BootstrapClaimModel.create({ _id: name, createdAt: now });
      return;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    const claim = await BootstrapClaimModel.findById(name).lean();
    if (claim?.teamId) throw nameTaken(name, claim.teamId);
    if (claim && now.getTime() - new Date(claim.createdAt).getTime() < STALE_BOOTSTRAP_CLAIM_MS) throw nameTaken(name);
    // Stale (or just released): take it over once. Only the claim judged stale is deleted, so a
    // fresh claim another process made after taking it over first is not.
    if (claim) await BootstrapClaimModel.deleteOne({ _id: name, teamId: null, createdAt: claim.createdAt });
  }
  throw nameTaken(name);
}

/**
 * `relay bootstrap` and POST /api/admin/bootstrap: a working tenant, refused with 409 when a team of that
 * name exists or is being bootstrapped. Run twice, bootstrap would otherwise make a second tenant that
 * cannot be told apart, and the first one's channel key is shown only once. POST /teams allows namesakes.
 */
export async function bootstrapTenant(input: TenantInput = {}, now = new Date()): ReturnType<typeof provisionTenant> {
  const name = input.team ?? 'My team';
  // Teams bootstrapped before claims existed, or made with POST /teams, hold their name too.
  const existing = await TeamModel.findOne({ name }).sort({ _id: 1 }).lean();
  if (existing) throw nameTaken(name, existing.id);
  await claimTeamName(name, now);
  try {
    const tenant = await provisionTenant(input);
    await BootstrapClaimModel.updateOne({ _id: name }, { $set: { teamId: tenant.teamId } });
    return tenant;
  } catch (err) {
    // Our own claim only: after a minute another bootstrap may have taken it over.
    await BootstrapClaimModel.deleteOne({ _id: name, teamId: null, createdAt: now }).catch(() => undefined);
    throw err;
  }
}
