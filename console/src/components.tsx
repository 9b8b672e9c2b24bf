// Small pieces every page uses: loading data, showing errors, a secret shown once, and the
// channel picker for pages that use the public API.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { admin, ApiError, type ChannelAccess } from './api.ts';
import { onSessionChange } from './session.ts';

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
  // Only the latest load shows: an earlier one (the list before a filter changed) that answers
  // after it would put the old rows back.
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await run();
      if (mine === latest.current) setState({ data, loading: false });
    } catch (error) {
      if (mine === latest.current) setState({ error, loading: false });
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Re-renders when the session (the admin token) changes. */
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
 * Picks the channel of the bot that the public-API pages call as, through the admin mirror of the
 * public API: the admin token is the only credential, so no channel key is read, shown or kept, and
 * any number of tabs work side by side. The bot's `console` channel is preferred, and made on the
 * first visit to a bot that has none (its key, in the answer, is dropped at once).
 */
export function ChannelPicker({ botId, onAccess }: { botId: string; onAccess: (access: ChannelAccess | undefined) => void }) {
  const channels = useLoad(() => admin<{ channels: ChannelRow[] }>('GET', `/channels?botId=${encodeURIComponent(botId)}`), [botId]);
  const [chosen, setChosen] = useState<string>();
  const action = useAction();

  const list = channels.data?.channels ?? [];
  const on = list.filter((c) => c.enabled);
  const consoleChannel = list.find((c) => c.name === CONSOLE_CHANNEL);
  const current = on.find((c) => c.channelId === chosen) ?? (consoleChannel?.enabled ? consoleChannel : on[0]);
  useEffect(() => {
    onAccess(current ? { botId, channelId: current.channelId } : undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [botId, current?.channelId]);
  const createConsoleChannel = () =>
    action.run(async () => {
      await admin('POST', '/channels', { botId, name: CONSOLE_CHANNEL });
      await channels.reload();
    });
  const autoCreated = useRef(false);
  useEffect(() => {
    if (!channels.data || consoleChannel || autoCreated.current) return;
    autoCreated.current = true;
    void createConsoleChannel();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channels.data, consoleChannel]);

  if (channels.error) return <ErrorNote error={channels.error} />;
  if (!channels.data) return <p className="muted">Loading channels…</p>;
  if (!consoleChannel && !action.error) return <p className="muted">Creating a console channel for this bot…</p>;
  if (!current) {
    return (
      <div className="channel-key">
        <p>Every API channel of this bot is off, and this page calls the public API as one of them. Turn one on under Bots and channels, or:</p>
        <button type="button" onClick={createConsoleChannel} disabled={action.busy}>
          Create a console channel
        </button>
        <ErrorNote error={action.error} />
      </div>
    );
  }
  return (
    <div className="channel-key">
      <label className="inline-label">
        <span>Using channel</span>
        <select value={current.channelId} onChange={(e) => setChosen(e.target.value)} aria-label="Channel">
          {on.map((c) => (
            <option key={c.channelId} value={c.channelId}>
              {c.name ?? c.channelId}
            </option>
          ))}
        </select>
        <span>for the public API.</span>
      </label>
      <span className="muted">The console calls it with your admin token: no channel key is needed or kept in this browser.</span>
      <ErrorNote error={action.error} />
    </div>
  );
}
