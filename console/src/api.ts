// How the console talks to the server: the admin API with the operator's token as a Bearer header,
// and the public API with a channel key in X-API-Secret-Key. Neither ever goes into a URL.
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

/** Calls /api/admin; a 401 forgets the token so the login form comes back. */
export async function admin<T = any>(method: Method, path: string, body?: unknown): Promise<T> {
  try {
    return await send(`/api/admin${path}`, method, { Authorization: `Bearer ${adminToken() ?? ''}` }, body);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) clearAdminToken();
    throw err;
  }
}

/** Checks a candidate token before the console keeps it. */
export async function verifyAdminToken(token: string): Promise<void> {
  await send('/api/admin/teams', 'GET', { Authorization: `Bearer ${token}` });
}

export interface ChannelAccess {
  channelId: string;
  secretKey: string;
}

export function publicPath(access: ChannelAccess, version: '1.0' | '2.0', path: string): string {
  return `/api/public/channels/${encodeURIComponent(access.channelId)}/${version}${path}`;
}

/** Calls the public API of one channel on version 2.0. */
export function publicApi<T = any>(access: ChannelAccess, method: Method, path: string, body?: unknown): Promise<T> {
  return send(publicPath(access, '2.0', path), method, { 'X-API-Secret-Key': access.secretKey }, body);
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
