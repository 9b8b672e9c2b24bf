// What the console remembers for this browser tab only (sessionStorage): the admin token and the
// channel keys the operator pasted or created. Closing the tab forgets them; nothing is in a URL.
const TOKEN = 'relay.adminToken';
const KEYS = 'relay.channelKeys';

type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const changed = () => listeners.forEach((l) => l());

export function adminToken(): string | null {
  return sessionStorage.getItem(TOKEN);
}

export function setAdminToken(token: string): void {
  sessionStorage.setItem(TOKEN, token);
  changed();
}

export function clearAdminToken(): void {
  if (sessionStorage.getItem(TOKEN) === null) return;
  sessionStorage.removeItem(TOKEN);
  changed();
}

/** Channel keys by channel id. */
function keys(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(KEYS) ?? '{}');
  } catch {
    return {};
  }
}

export function channelKey(channelId: string): string | undefined {
  return keys()[channelId];
}

export function rememberChannelKey(channelId: string, secretKey: string): void {
  sessionStorage.setItem(KEYS, JSON.stringify({ ...keys(), [channelId]: secretKey }));
  changed();
}

export function forgetChannelKey(channelId: string): void {
  const all = keys();
  delete all[channelId];
  sessionStorage.setItem(KEYS, JSON.stringify(all));
  changed();
}
