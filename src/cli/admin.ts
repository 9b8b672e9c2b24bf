// How commands that act on a running server reach it: its admin API over HTTP, so the server's own
// configuration (OUTBOUND_ALLOW_PRIVATE, plan limits) and validation apply, not the shell's. The
// server is RELAY_URL, else 127.0.0.1:PORT; the token is ADMIN_TOKEN, else DATA_DIR/admin-token
// (the one `npm start` generates on the embedded default).
import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { localAdminTokenFile } from '../http/localAdminToken.ts';

/** A whole admin call, answer included; a server that stops answering is a failure, not a hang. */
const ADMIN_TIMEOUT_MS = 130_000;

export interface AdminServer {
  url: string;
  token: string;
}

/** The running server's base URL, as every server-bound command finds it. */
export function serverUrl(config = loadConfig()): string {
  return (config.RELAY_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
}

export function adminServer(): AdminServer {
  const config = loadConfig();
  const url = serverUrl(config);
  let token = config.ADMIN_TOKEN;
  if (!token) {
    const file = localAdminTokenFile(config.dataDir);
    try {
      token = fs.readFileSync(file, 'utf8').trim();
    } catch {
      throw new Error(`no admin token: set ADMIN_TOKEN, or run where the server keeps ${file} (DATA_DIR)`);
    }
  }
  return { url, token };
}

export type AdminAnswer = Record<string, unknown> & { success: true };

/** One admin API call; a refusal becomes `<status> <code>: <message>`, an unreachable server names its URL. */
export async function adminCall(method: string, path: string, body?: unknown, server: AdminServer = adminServer()): Promise<AdminAnswer> {
  let res: Response;
  try {
    res = await fetch(`${server.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new Error(`no Relay server answers at ${server.url} (${cause}): start it with "npm start", or set RELAY_URL or PORT`);
  }
  const text = await res.text();
  let answer: { success?: boolean; code?: string; message?: string } & Record<string, unknown>;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error(`${res.status}: ${server.url} answered with something other than Relay's JSON`);
  }
  if (!res.ok || answer.success !== true) throw new Error(`${res.status} ${answer.code ?? 'error'}: ${answer.message ?? text}`);
  return answer as AdminAnswer;
}

/** Path segments come from the command line; encoding keeps a stray slash from reaching another route. */
export const seg = (value: string) => encodeURIComponent(value);
