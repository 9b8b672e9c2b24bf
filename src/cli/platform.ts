// `relay bootstrap`, `relay teams …`, `relay bots …`, `relay channels …`: tenancy from the shell.
// Bootstrap works offline on the database; the rest go through the running server's admin API.
import type { Command } from 'commander';
import { PLANS, type PlanName } from '../plans.ts';
import { adminCall, seg, type AdminAnswer } from './admin.ts';
import { TOP_LEVEL } from './topLevel.ts';
import { printJson } from './output.ts';

const int = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${v}`);
  return n;
};

function plan(value: string): PlanName {
  if (!PLANS.includes(value as PlanName)) throw new Error(`plan must be one of ${PLANS.join(', ')}`);
  return value as PlanName;
}

export function registerPlatformCommands(program: Command): void {
  program
    .command('bootstrap')
    .description(
      'create a team, a bot and an API channel; prints channelId and secretKey as JSON. Works offline, on the database itself ' +
        '(MONGODB_URI or the embedded one under DATA_DIR), so it runs before the server is ever started',
    )
    .summary(TOP_LEVEL.bootstrap)
    .option('--team <name>', 'team name (a second team of the same name is refused)', 'My team')
    .option('--bot <name>', 'bot name', 'My bot')
    .option('--plan <plan>', `plan (${PLANS.join(', ')})`, plan, 'standard' as PlanName)
    .action(async (o) => {
      // The database and the domain's service load only here: the other commands go over HTTP.
      const [platform, { AppError }, { withRuntime }] = await Promise.all([import('../platform/service.ts'), import('../http/errors.ts'), import('./context.ts')]);
      printJson(
        await withRuntime(async () => {
          try {
            return await platform.bootstrapTenant({ team: o.team, bot: o.bot, plan: o.plan });
          } catch (err) {
            // The service's refusal, with the shell's way on.
            if (err instanceof AppError && err.code === 'conflict') {
              throw new Error(`${err.message} ("relay channels list", "relay channels rotate <channelId>", or --team <name>)`);
            }
            throw err;
          }
        }),
      );
    });

  const teams = program.command('teams').description(TOP_LEVEL.teams);
  teams
    .command('create')
    .description('create a team')
    .requiredOption('--name <name>', 'team name')
    .option('--plan <plan>', `plan (${PLANS.join(', ')})`, plan)
    .action(async (o) => printJson((await adminCall('POST', '/teams', { name: o.name, plan: o.plan })).team));
  teams
    .command('list')
    .description('list teams')
    .action(async () => printJson((await adminCall('GET', '/teams')).teams));
  teams
    .command('set-plan')
    .description("set a team's plan (required: --plan) and optional limit overrides")
    .argument('<teamId>')
    .requiredOption('--plan <plan>', `required: the plan (${PLANS.join(', ')})`, plan)
    .option('--data-sources-per-bot <n>', 'override', int)
    .option('--storage-tokens <n>', 'override', int)
    .option('--chat-tokens <n>', 'override', int)
    .option('--max-message-length <n>', 'override', int)
    .action(async (teamId, o) => {
      const limits = Object.fromEntries(
        Object.entries({
          dataSourcesPerBot: o.dataSourcesPerBot,
          storageTokens: o.storageTokens,
          chatTokens: o.chatTokens,
          maxMessageLength: o.maxMessageLength,
        }).filter(([, v]) => v !== undefined),
      );
      printJson((await adminCall('PUT', `/teams/${seg(teamId)}/plan`, { plan: o.plan, limits })).team);
    });

  const bots = program.command('bots').description(TOP_LEVEL.bots);
  bots
    .command('create')
    .description('create a bot in a team')
    .requiredOption('--team <teamId>', 'team id')
    .requiredOption('--name <name>', 'bot name')
    .option('--instructions <text>', 'system instructions')
    .option('--welcome <text>', 'welcome message')
    .option('--max-message-length <n>', 'maximum user message length', int)
    .action(async (o) =>
      printJson(
        (
          await adminCall('POST', '/bots', {
            teamId: o.team,
            name: o.name,
            instructions: o.instructions,
            welcomeMessage: o.welcome,
            maxMessageLength: o.maxMessageLength,
          })
        ).bot,
      ),
    );
  bots
    .command('list')
    .description('list bots')
    .option('--team <teamId>', 'only this team')
    .action(async (o) => printJson((await adminCall('GET', `/bots${o.team ? `?teamId=${seg(o.team)}` : ''}`)).bots));

  const channels = program.command('channels').description(TOP_LEVEL.channels);
  const withKey = (answer: AdminAnswer) => ({ ...(answer.channel as object), secretKey: answer.secretKey });
  channels
    .command('create')
    .description('create an API channel for a bot; prints the secret key once')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (o) => printJson(withKey(await adminCall('POST', '/channels', { botId: o.bot }))));
  channels
    .command('list')
    .description('list API channels')
    .option('--bot <botId>', 'only this bot')
    .action(async (o) => printJson((await adminCall('GET', `/channels${o.bot ? `?botId=${seg(o.bot)}` : ''}`)).channels));
  channels
    .command('rotate')
    .description("replace a channel's secret key; the old key stops working at once")
    .argument('<channelId>')
    .action(async (id) => printJson(withKey(await adminCall('POST', `/channels/${seg(id)}/rotate`))));
  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    channels
      .command(name)
      .description(`turn a channel ${enabled ? 'on' : 'off'}`)
      .argument('<channelId>')
      .action(async (id) => printJson((await adminCall('PUT', `/channels/${seg(id)}/enabled`, { enabled })).channel));
  }
}
