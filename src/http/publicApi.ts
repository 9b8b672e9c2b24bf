// The public API's paths (spec "Common rules"): the prefix /api/public/channels/:channelId/:version,
// version 1.0 or 2.0. Who may call a channel is platform's to say (platform/publicAuth.ts).
import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from './errors.ts';
import { ROUTER_MATCHING } from './guard.ts';

export const API_VERSIONS = ['1.0', '2.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PUBLIC_PREFIX = '/api/public/channels/:channelId/:version';
/** The same routes for the web console: entered with the admin token instead of a channel key (docs/CONSOLE.md). */
export const CONSOLE_PUBLIC_PREFIX = '/api/admin/bots/:botId/channels/:channelId/public/:version';

/** The version and channel id (lower case) a public request names: an unknown version or a malformed channel id is 404. */
export function publicTarget(ctx: Context): { channelId: string; version: ApiVersion } {
  const { channelId, version } = (ctx as unknown as { params: Record<string, string | undefined> }).params;
  if (!API_VERSIONS.includes(version as ApiVersion)) throw new AppError('not_found', 'Unknown API version');
  if (!channelId || !UUID_RE.test(channelId)) throw new AppError('channel_not_found', 'Channel not found');
  return { channelId: channelId.toLowerCase(), version: version as ApiVersion };
}

export function createPublicRouter<State>(prefix: string = PUBLIC_PREFIX): Router<State> {
  return new Router<State>({ prefix, ...ROUTER_MATCHING });
}
