// Small pieces every page uses: loading data, showing errors, a secret shown once, and the
// channel-key picker for pages that use the public API.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { admin, ApiError, type ChannelAccess } from './api.ts';
import { channelKey, forgetChannelKey, onSessionChange, rememberChannelKey } from './session.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

/** Runs `load` now and whenever `deps` change; `reload()` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await run();
      setState({ data, loading: false });
    } catch (error) {
      setState({ error, loading: false });
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Re-renders when the session (token, channel keys) changes. */
export function useSessionVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => onSessionChange(() => setVersion((v) => v + 1)), []);
  return version;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String((error as Error)?.message ?? error);
  return (
    <p className="note error" role="alert">
      {text}
    </p>
  );
}

/** Runs an action, keeping its error and a busy flag for the button that started it. */
export function useAction() {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, busy, run };
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card">
      <header>
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A secret the server shows once: displayed until dismissed, selectable, never stored in a URL. */
export function SecretOnce({ label, value, onDismiss }: { label: string; value: string; onDismiss: () => void }) {
  return (
    <div className="secret" role="status">
      <strong>{label}</strong> (shown once, copy it now):
      <code data-testid="secret-value">{value}</code>
      <button type="button" onClick={onDismiss}>
        Done
      </button>
    </div>
  );
}

export function Time({ value }: { value?: string | null }) {
  if (!value) return <span className="muted">never</span>;
  return <time dateTime={value}>{new Date(value).toLocaleString()}</time>;
}

/** The channel the console makes for itself, one per bot. */
const CONSOLE_CHANNEL = 'console';

interface ChannelRow {
  channelId: string;
  name?: string;
  enabled: boolean;
}

/**
 * Picks a channel of the bot whose key this tab knows, for pages that use the public API. The
 * operator pastes a key, or creates a channel for the console (the admin API shows its key once).
 */
export function ChannelKeyPicker({ botId, onAccess }: { botId: string; onAccess: (access: ChannelAccess | undefined) => void }) {
  const session = useSessionVersion();
  const channels = useLoad(() => admin<{ channels: ChannelRow[] }>('GET', `/channels?botId=${encodeURIComponent(botId)}`), [botId]);
  const [pasteFor, setPasteFor] = useState<string>('');
  const [pasted, setPasted] = useState('');
  const action = useAction();

  const usable = (channels.data?.channels ?? []).find((c) => c.enabled && channelKey(c.channelId));
  const consoleChannel = channels.data?.channels.find((c) => c.name === CONSOLE_CHANNEL);
  useEffect(() => {
    onAccess(usable ? { channelId: usable.channelId, secretKey: channelKey(usable.channelId)! } : undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [usable?.channelId, session]);
  const createConsoleChannel = () =>
    action.run(async () => {
      const res = await admin<{ channel: ChannelRow; secretKey: string }>('POST', '/channels', { botId, name: CONSOLE_CHANNEL });
      rememberChannelKey(res.channel.channelId, res.secretKey);
      await channels.reload();
    });
  // The first visit makes the bot's console channel itself, so the page works at once. Once the
  // bot has one, a tab without its key asks: the server cannot show an existing key again.
  const autoCreated = useRef(false);
  useEffect(() => {
    if (!channels.data || usable || consoleChannel || autoCreated.current) return;
    autoCreated.current = true;
    void createConsoleChannel();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channels.data, usable, consoleChannel]);

  if (channels.error) return <ErrorNote error={channels.error} />;
  if (!channels.data) return <p className="muted">Loading channels…</p>;
  if (usable) {
    return (
      <p className="channel-key">
        Using channel <code>{usable.name ?? usable.channelId}</code> for the public API.{' '}
        <button type="button" className="link" onClick={() => forgetChannelKey(usable.channelId)}>
          forget key
        </button>
      </p>
    );
  }
  const renewConsoleKey = (channelId: string) =>
    action.run(async () => {
      const res = await admin<{ channel: ChannelRow; secretKey: string }>('POST', `/channels/${encodeURIComponent(channelId)}/rotate`);
      rememberChannelKey(res.channel.channelId, res.secretKey);
      await channels.reload();
    });
  if (!consoleChannel && !action.error) return <p className="muted">Creating a console channel for this bot…</p>;
  return (
    <div className="channel-key">
      <p>This page uses the public API, which needs a channel key of this bot. Keys stay in this browser tab only.</p>
      {consoleChannel?.enabled ? (
        <button type="button" onClick={() => renewConsoleKey(consoleChannel.channelId)} disabled={action.busy}>
          New key for the console channel
        </button>
      ) : (
        <button type="button" onClick={createConsoleChannel} disabled={action.busy}>
          Create a console channel
        </button>
      )}
      {consoleChannel?.enabled && <span className="muted"> (another tab using its old key will need this one)</span>}
      {channels.data.channels.length > 0 && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (pasteFor && pasted) rememberChannelKey(pasteFor, pasted.trim());
            setPasted('');
          }}
        >
          <span>or paste the key of</span>
          <select value={pasteFor} onChange={(e) => setPasteFor(e.target.value)} aria-label="Channel">
            <option value="">channel…</option>
            {channels.data.channels.map((c) => (
              <option key={c.channelId} value={c.channelId}>
                {c.name ?? c.channelId}
              </option>
            ))}
          </select>
          <input type="password" value={pasted} onChange={(e) => setPasted(e.target.value)} placeholder="secret key" aria-label="Secret key" autoComplete="off" />
          <button type="submit">Use key</button>
        </form>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}
