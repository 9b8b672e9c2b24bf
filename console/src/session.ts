// What the console remembers for this browser tab only (sessionStorage): the admin token. Closing
// the tab forgets it; nothing is in a URL. No channel key is kept: the public API is reached
// through its admin mirror (api.ts).
const TOKEN = 'relay.adminToken';

// A tab an older console ran in may still hold the channel keys it kept here; drop them.
sessionStorage.removeItem('relay.channelKeys');

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
