// Who may call the public API (spec "Authentication" 1): the channel the path names, with its
// X-API-Secret-Key. The state it leaves is what every public route reads.
import type { Context, Next } from 'koa';
import { publicTarget, type ApiVersion } from '../http/publicApi.ts';
import type { IdempotentRequest } from '../http/idempotency.ts';
import { authenticateChannel, channelTenant, type ChannelAccess } from './service.ts';
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
  let tenant: Promise<ChannelAccess> | undefined;
  Object.assign(ctx.state, { channel, botId: channel.botId, tenant: () => (tenant ??= channelTenant(channel)), apiVersion: version });
  return next();
}
