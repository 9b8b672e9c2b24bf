// The public API edge (spec "Common rules" and "Authentication" 1): the prefix
// /api/public/channels/:channelId/:version, version 1.0 or 2.0, and X-API-Secret-Key auth.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError } from './errors.ts';
import { authenticateChannel, channelTenant, type ChannelAccess } from '../platform/service.ts';
import type { ApiChannel } from '../platform/model.ts';
import { ROUTER_MATCHING } from './guard.ts';
import type { IdempotentRequest } from './idempotency.ts';

export const API_VERSIONS = ['1.0', '2.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

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

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PUBLIC_PREFIX = '/api/public/channels/:channelId/:version';

/**
 * Authenticates a request to a public route (app.ts binds it to every route of the public
 * router, so it runs exactly when a route matched): unknown version or channel 404, a missing or
 * wrong key 403 (spec "Authentication" 1).
 */
export async function authenticatePublic(ctx: Context, next: Next) {
  const { channelId, version } = (ctx as unknown as { params: Record<string, string | undefined> }).params;
  if (!API_VERSIONS.includes(version as ApiVersion)) throw new AppError('not_found', 'Unknown API version');
  if (!channelId || !UUID_RE.test(channelId)) throw new AppError('channel_not_found', 'Channel not found');
  const header = ctx.get('x-api-secret-key');
  const channel = await authenticateChannel(channelId.toLowerCase(), header || undefined);
  let tenant: Promise<ChannelAccess> | undefined;
  Object.assign(ctx.state, { channel, botId: channel.botId, tenant: () => (tenant ??= channelTenant(channel)), apiVersion: version });
  return next();
}

export function createPublicRouter(): Router<PublicState> {
  return new Router<PublicState>({ prefix: PUBLIC_PREFIX, ...ROUTER_MATCHING });
}
