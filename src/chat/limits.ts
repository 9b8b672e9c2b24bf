// Chat limits (spec "Limits", "Errors" Chat): the bot's maximum message length and the team's chat
// tokens, both 429 with a stable code; and the atomic charge of each reply's tokens to the team.
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { tokensUsed } from '../observability/metrics.ts';
import type { Bot, Team } from '../platform/model.ts';
import { TeamModel } from '../platform/model.ts';
import { effectiveLimits } from '../platform/presenters.ts';

/** Characters are Unicode code points, so an emoji counts once. */
export function messageLength(message: string): number {
  let n = 0;
  for (const _ of message) n++;
  return n;
}

export function assertMessageLength(ctx: AppContext, bot: Pick<Bot, 'maxMessageLength'>, team: Team, message: string): void {
  const max = bot.maxMessageLength ?? effectiveLimits(team, ctx.planLimits).maxMessageLength;
  if (messageLength(message) > max) {
    throw new AppError('message_too_long', `The message is longer than the bot's maximum message length (${max} characters)`, { maxMessageLength: max });
  }
}

/** `statusMessage` is the plain text /conversation carries (spec "Chat" rules for /conversation). */
export function assertChatTokensLeft(ctx: AppContext, team: Team): void {
  const limit = effectiveLimits(team, ctx.planLimits).chatTokens;
  if ((team.usage?.chatTokens ?? 0) >= limit) {
    throw new AppError('token_limit_reached', "The team's chat token limit has been reached", { statusMessage: 'Token limit reached' });
  }
}

/**
 * $inc keeps concurrent replies from losing each other's counts. Chat writes the team's usage
 * counter directly because platform exposes no charge function; the field is chat's to count.
 */
export async function chargeChatTokens(teamId: string, tokens: number): Promise<void> {
  if (tokens <= 0) return;
  await TeamModel.updateOne({ id: teamId }, { $inc: { 'usage.chatTokens': tokens } });
  tokensUsed.inc({ kind: 'chat' }, tokens);
}
