// Who may call the public API (spec "Authentication" 1): the channel the path names, with its
// X-API-Secret-Key. The state it leaves is what every public route reads.
import type { Context, Next } from 'koa';
import { publicTarget, type ApiVersion } from '../http/publicApi.ts';
import type { IdempotentRequest } from '../http/idempotency.ts';
import { authenticateChannel, channelOfBot, channelTenant, type ChannelAccess } from './service.ts';
import type { ApiChannel } from './model.ts';

export interface PublicState {
  channel: ApiChannel;
  /** The channel's bot: what the list and get routes scope their reads by. */
  botId: string;
  /** The bot and team, read on first call (once per request): only routes that use more than the ids pay for them. */
  tenant(): Promise<ChannelAccess>;
  apiVersion: ApiVersion;
  input: any;
  /** Set on routes that take an Idempotency-Key, when the request sent one (http/idempotency.ts). */
  idempotency?: IdempotentRequest;
}

/**
 * Authenticates a request to a public route (app.ts binds it to every route of the public
 * router, so it runs exactly when a route matched): unknown version or channel 404, a missing or
 * wrong key 403 (spec "Authentication" 1).
 */
export async function authenticatePublic(ctx: Context, next: Next) {
  const { channelId, version } = publicTarget(ctx);
  const header = ctx.get('x-api-secret-key');
  const channel = await authenticateChannel(channelId, header || undefined);
  enterChannel(ctx, channel, version);
  return next();
}

/**
 * The web console's way into the same routes (CONSOLE_PUBLIC_PREFIX), after the admin token was
 * checked: the channel the path names must be on and belong to the bot the path names (else 404),
 * and no channel key is asked for, so the browser never holds one.
 */
export async function authenticateConsoleChannel(ctx: Context, next: Next) {
  const { channelId, version } = publicTarget(ctx);
  const { botId } = (ctx as unknown as { params: Record<string, string | undefined> }).params;
  enterChannel(ctx, await channelOfBot(botId ?? '', channelId), version);
  return next();
}

function enterChannel(ctx: Context, channel: ApiChannel, version: ApiVersion): void {
  let tenant: Promise<ChannelAccess> | undefined;
  Object.assign(ctx.state, { channel, botId: channel.botId, tenant: () => (tenant ??= channelTenant(channel)), apiVersion: version });
}
