// The public API edge (spec "Common rules" and "Authentication" 1): the prefix
// /api/public/channels/:channelId/:version, version 1.0 or 2.0, and X-API-Secret-Key auth.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError } from './errors.ts';
import { authenticateChannel } from '../platform/service.ts';
import type { ApiChannel, Bot, Team } from '../platform/model.ts';

export const API_VERSIONS = ['1.0', '2.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export interface PublicState {
  channel: ApiChannel;
  bot: Bot;
  team: Team;
  apiVersion: ApiVersion;
  input: any;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PUBLIC_PREFIX = '/api/public/channels/:channelId/:version';
const PREFIX_RE = /^\/api\/public\/channels\/([^/]+)\/([^/]+)(?:\/|$)/;

/**
 * Authenticates every request under the public prefix, matched route or not, so an unknown
 * channel is 404 and a wrong key 403 whatever the path.
 */
export async function authenticatePublic(ctx: Context, next: Next) {
  const match = PREFIX_RE.exec(ctx.path);
  if (!match) return next();
  const [, channelId, version] = match as unknown as [string, string, string];
  if (!API_VERSIONS.includes(version as ApiVersion)) throw new AppError('not_found', 'Unknown API version');
  if (!UUID_RE.test(channelId)) throw new AppError('channel_not_found', 'Channel not found');
  const header = ctx.get('x-api-secret-key');
  const access = await authenticateChannel(channelId.toLowerCase(), header || undefined);
  Object.assign(ctx.state, access, { apiVersion: version });
  return next();
}

export function createPublicRouter(): Router<PublicState> {
  return new Router<PublicState>({ prefix: PUBLIC_PREFIX });
}
