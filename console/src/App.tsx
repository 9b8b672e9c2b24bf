// The console shell: the token gate, the navigation (hash routes, so the server serves one page)
// and the bot every page works on.
import { useEffect, useState, type FormEvent } from 'react';
import { admin, ApiError, verifyAdminToken } from './api.ts';
import { adminToken, clearAdminToken, setAdminToken } from './session.ts';
import { ErrorNote, useLoad, useSessionVersion } from './components.tsx';
import { BotsPage, type BotRow } from './pages/BotsPage.tsx';
import { DataSourcesPage } from './pages/DataSourcesPage.tsx';
import { WebhooksPage } from './pages/WebhooksPage.tsx';
import { InboxPage } from './pages/InboxPage.tsx';
import { PlaygroundPage } from './pages/PlaygroundPage.tsx';
import { GatewayPage } from './pages/GatewayPage.tsx';

const PAGES = [
  { id: 'bots', title: 'Bots and channels' },
  { id: 'data-sources', title: 'Data sources' },
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'inbox', title: 'Agent inbox' },
  { id: 'playground', title: 'Chat playground' },
  { id: 'gateway', title: 'Gateway' },
] as const;
type PageId = (typeof PAGES)[number]['id'];

function currentPage(): PageId {
  const id = location.hash.replace(/^#\/?/, '');
  return (PAGES.find((p) => p.id === id)?.id ?? 'bots') as PageId;
}

function Login() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await verifyAdminToken(token.trim());
      setAdminToken(token.trim());
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? new Error('That token was refused.') : err);
    }
  };
  return (
    <main className="login">
      <h1>Relay console</h1>
      <form onSubmit={submit}>
        <label>
          Admin token
          <input type="password" name="adminToken" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" autoFocus />
        </label>
        <button type="submit" disabled={!token.trim()}>
          Sign in
        </button>
      </form>
      <p className="muted">The token is the server's ADMIN_TOKEN. It is kept in this tab only and sent as a Bearer header.</p>
      <ErrorNote error={error} />
    </main>
  );
}

function Console() {
  const [page, setPage] = useState<PageId>(currentPage);
  const [botId, setBotId] = useState<string>(() => sessionStorage.getItem('relay.botId') ?? '');
  const bots = useLoad(() => admin<{ bots: BotRow[] }>('GET', '/bots'), []);

  useEffect(() => {
    const onHash = () => setPage(currentPage());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const list = bots.data?.bots ?? [];
  const selected = list.find((b) => b.id === botId) ?? list[0];
  const chooseBot = (id: string) => {
    sessionStorage.setItem('relay.botId', id);
    setBotId(id);
  };

  return (
    <div className="shell">
      <nav>
        <h1>Relay</h1>
        {PAGES.map((p) => (
          <a key={p.id} href={`#/${p.id}`} className={p.id === page ? 'active' : undefined}>
            {p.title}
          </a>
        ))}
        <div className="spacer" />
        <label className="bot-picker">
          Bot
          <select value={selected?.id ?? ''} onChange={(e) => chooseBot(e.target.value)} aria-label="Bot">
            {list.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <a href="/docs" target="_blank" rel="noreferrer">
          API docs
        </a>
        <button type="button" className="link" onClick={clearAdminToken}>
          Sign out
        </button>
      </nav>
      <main>
        <ErrorNote error={bots.error} />
        {page === 'bots' && <BotsPage bots={list} reloadBots={bots.reload} selectBot={chooseBot} />}
        {page !== 'bots' && page !== 'gateway' && !selected && bots.data && <p className="note">Create a bot first (Bots and channels).</p>}
        {page === 'data-sources' && selected && <DataSourcesPage key={selected.id} bot={selected} />}
        {page === 'webhooks' && selected && <WebhooksPage key={selected.id} bot={selected} />}
        {page === 'inbox' && selected && <InboxPage key={selected.id} bot={selected} />}
        {page === 'playground' && selected && <PlaygroundPage key={selected.id} bot={selected} />}
        {page === 'gateway' && <GatewayPage />}
      </main>
    </div>
  );
}

export function App() {
  useSessionVersion();
  return adminToken() ? <Console /> : <Login />;
}
