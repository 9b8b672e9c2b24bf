// How the console talks to the server: the admin API with the operator's token as a Bearer header,
// and the public API through its admin mirror (/api/admin/bots/:botId/channels/:channelId/public),
// with the same token, so the browser never holds a channel key. The token never goes into a URL.
import { adminToken, clearAdminToken } from './session.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function readJson(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return { success: false, code: 'not_json', message: text.slice(0, 200) };
  }
}

async function send(url: string, method: Method, headers: Record<string, string>, body?: unknown): Promise<any> {
  const init: RequestInit = { method, headers: { ...headers }, cache: 'no-store', referrerPolicy: 'no-referrer' };
  if (body !== undefined) {
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const json = await readJson(res);
  if (!res.ok || json.success === false) {
    throw new ApiError(res.status, json.code ?? String(res.status), json.message ?? res.statusText);
  }
  return json;
}

/** The header every admin call carries. */
export function adminHeaders(): Record<string, string> {
  return { Authorization: `Bearer ${adminToken() ?? ''}` };
}

/** A 401 from the admin side means the token changed on the server: forget it so the login form comes back. */
export function signOutOn401(err: unknown): never {
  if (err instanceof ApiError && err.status === 401) clearAdminToken();
  throw err;
}

/** Calls /api/admin. */
export async function admin<T = any>(method: Method, path: string, body?: unknown): Promise<T> {
  return send(`/api/admin${path}`, method, adminHeaders(), body).catch(signOutOn401);
}

/** Checks a candidate token before the console keeps it. */
export async function verifyAdminToken(token: string): Promise<void> {
  await send('/api/admin/teams', 'GET', { Authorization: `Bearer ${token}` });
}

/** The channel of a bot the console calls the public API as (ids only: no key). */
export interface ChannelAccess {
  botId: string;
  channelId: string;
}

export function publicPath(access: ChannelAccess, version: '1.0' | '2.0', path: string): string {
  return `/api/admin/bots/${encodeURIComponent(access.botId)}/channels/${encodeURIComponent(access.channelId)}/public/${version}${path}`;
}

/** Calls the public API of one channel on version 2.0, through its admin mirror. */
export function publicApi<T = any>(access: ChannelAccess, method: Method, path: string, body?: unknown): Promise<T> {
  return send(publicPath(access, '2.0', path), method, adminHeaders(), body).catch(signOutOn401);
}

/** Query string from defined values only. */
export function query(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== '') as [string, string][];
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : '';
}

/** Reads every page of a paged public list (POST with limit/cursor, spec "Common rules"). */
export async function allPages<T>(fetchPage: (cursor?: string) => Promise<{ items: T[]; last: string | null }>, max = 1000): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    if (page.items.length === 0 || !page.last || items.length >= max) return items;
    cursor = page.last;
  }
}
