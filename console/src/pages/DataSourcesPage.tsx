// Data sources of a bot, through the public API (spec "Data sources") as one of its channels: create,
// add rows (typed or uploaded markdown files), sync and watch the state, read and delete rows.
import { useEffect, useState, type FormEvent } from 'react';
import { allPages, publicApi, query, type ChannelAccess } from '../api.ts';
import { ChannelPicker, ErrorNote, Section, Time, useAction, useLoad } from '../components.tsx';
import { Table } from '../table.tsx';
import type { BotRow } from './BotsPage.tsx';
import { renameDataSource, SyncHooks, useDataSourceNames } from './SyncHooks.tsx';

interface DataSource {
  id: string;
  type: string;
  state: 'not_synced' | 'syncing' | 'synced' | 'sync_error';
  lastSync: string | null;
  syncInterval: 'day' | 'week' | 'month' | null;
  createdAt: string;
}
interface RowRef {
  id: string;
  name: string;
}
interface Row extends RowRef {
  content: string;
  state?: string;
  lastModified?: string | null;
}

function Rows({ access, source, name: sourceName, onChanged }: { access: ChannelAccess; source: DataSource; name?: string; onChanged: () => void }) {
  const rows = useLoad(
    () =>
      allPages<RowRef>(async (cursor) => {
        const res = await publicApi(access, 'POST', '/data-sources/row/list', { dataSourceId: source.id, limit: 100, ...(cursor ? { cursor } : {}) });
        return { items: res.dataSourceRows, last: res.pagination.last };
      }),
    [source.id, access.channelId],
  );
  const [open, setOpen] = useState<Row>();
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const action = useAction();

  const addRows = (newRows: { name: string; content: string }[]) =>
    action.run(async () => {
      await publicApi(access, 'POST', '/data-sources/row', { dataSourceId: source.id, dataSourceRows: newRows });
      await rows.reload();
      onChanged();
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void addRows([{ name, content }]).then(() => {
      setName('');
      setContent('');
    });
  };
  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    const read = await Promise.all([...files].map(async (f) => ({ name: f.name, content: await f.text() })));
    await addRows(read);
  };
  const view = (id: string) =>
    action.run(async () => {
      const res = await publicApi(access, 'GET', `/data-sources/row${query({ dataSourceId: source.id, dataSourceRowId: id })}`);
      setOpen(res.dataSourceRow);
    });
  const remove = (id: string) =>
    action.run(async () => {
      await publicApi(access, 'DELETE', '/data-sources/row', { dataSourceId: source.id, dataSourceRows: [{ id }] });
      if (open?.id === id) setOpen(undefined);
      await rows.reload();
    });

  return (
    <Section title={`Rows of ${sourceName || source.id}`}>
      <ErrorNote error={rows.error ?? action.error} />
      <Table columns={['Name', 'Id', '']}>
        {(rows.data ?? []).map((r) => (
          <tr key={r.id} data-row={r.name}>
            <td>{r.name}</td>
            <td>
              <code>{r.id}</code>
            </td>
            <td className="actions">
              <button type="button" onClick={() => view(r.id)}>
                View
              </button>
              <button type="button" onClick={() => remove(r.id)}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {rows.data?.length === 0 && <p className="muted">No rows yet.</p>}
      {open && (
        <article className="row-view" aria-label="Row">
          <h3>{open.name}</h3>
          <p className="muted">
            state {open.state ?? '—'}, modified <Time value={open.lastModified} />
          </p>
          <pre>{open.content}</pre>
        </article>
      )}
      <h3>Add a row</h3>
      <form onSubmit={submit} className="stack" aria-label="Add a row">
        <label>
          Name
          <input name="rowName" value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Markdown
          <textarea name="rowContent" value={content} onChange={(e) => setContent(e.target.value)} rows={5} required />
        </label>
        <button type="submit" disabled={action.busy}>
          Add row
        </button>
      </form>
      <label className="upload">
        Or upload markdown files (one row each):
        <input type="file" accept=".md,.markdown,.txt,text/markdown,text/plain" multiple onChange={(e) => void upload(e.target.files)} />
      </label>
    </Section>
  );
}

function SourceTable({ access, botId }: { access: ChannelAccess; botId: string }) {
  const sources = useLoad(
    () =>
      allPages<DataSource>(async (cursor) => {
        const res = await publicApi(access, 'POST', '/data-sources/list', { limit: 100, ...(cursor ? { cursor } : {}) });
        return { items: res.dataSources, last: res.pagination.last };
      }),
    [access.channelId],
  );
  const [openId, setOpenId] = useState<string>();
  const action = useAction();
  // Names live on the admin side (the public API has none); reloaded with the list.
  const names = useDataSourceNames(botId, sources.data);
  const syncing = (sources.data ?? []).some((s) => s.state === 'syncing');

  // While a sync runs, poll the list (spec rule 5: poll until synced or sync_error).
  useEffect(() => {
    if (!syncing) return;
    const timer = setInterval(() => void sources.reload(), 1000);
    return () => clearInterval(timer);
  }, [syncing, sources.reload]);

  const create = () =>
    action.run(async () => {
      const res = await publicApi<{ dataSource: DataSource }>(access, 'POST', '/data-sources');
      await sources.reload();
      setOpenId(res.dataSource.id);
    });
  const sync = (id: string) =>
    action.run(async () => {
      await publicApi(access, 'POST', '/data-sources/sync', { dataSourceId: id });
      await sources.reload();
    });
  const setInterval_ = (id: string, value: string) =>
    action.run(async () => {
      await publicApi(access, 'PUT', '/data-sources', { dataSourceId: id, syncInterval: value || null });
      await sources.reload();
    });
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const saveName = (e: FormEvent) => {
    e.preventDefault();
    const target = renaming;
    if (!target?.name.trim()) return;
    void action.run(async () => {
      await renameDataSource(botId, target.id, target.name.trim());
      await names.reload();
      setRenaming(undefined);
    });
  };
  const remove = (id: string) =>
    action.run(async () => {
      if (!confirm('Delete this data source and all its rows? This cannot be undone.')) return;
      await publicApi(access, 'DELETE', '/data-sources', { dataSourceId: id });
      await sources.reload();
    });
  const open = sources.data?.find((s) => s.id === openId);

  return (
    <>
      <Section
        title="Data sources"
        actions={
          <button type="button" onClick={create} disabled={action.busy}>
            New data source
          </button>
        }
      >
        <ErrorNote error={sources.error ?? action.error} />
        <Table columns={['Name', 'State', 'Last sync', 'Auto sync', '']}>
          {(sources.data ?? []).map((s) => (
            <tr key={s.id} className={s.id === openId ? 'selected' : undefined} data-source={s.id}>
              <td>
                {renaming?.id === s.id ? (
                  <form onSubmit={saveName} className="inline" aria-label="Rename data source">
                    <input
                      value={renaming.name}
                      onChange={(e) => setRenaming({ id: s.id, name: e.target.value })}
                      aria-label="Data source name"
                      title="Sync webhooks carry this name"
                      autoFocus
                      required
                    />
                    <button type="submit" disabled={action.busy}>
                      Save
                    </button>
                    <button type="button" className="link" onClick={() => setRenaming(undefined)}>
                      cancel
                    </button>
                  </form>
                ) : (
                  <>
                    <span data-testid="source-name">{names.data?.get(s.id)?.name ?? '—'}</span>{' '}
                    <button type="button" className="link" onClick={() => setRenaming({ id: s.id, name: names.data?.get(s.id)?.name ?? '' })}>
                      rename
                    </button>
                  </>
                )}
                <br />
                <code>{s.id}</code>
              </td>
              <td>
                <span className={`state ${s.state}`} data-testid="sync-state">
                  {s.state}
                </span>
                {s.state === 'sync_error' && names.data?.get(s.id)?.lastError && <div className="muted">{names.data.get(s.id)!.lastError}</div>}
              </td>
              <td>
                <Time value={s.lastSync} />
              </td>
              <td>
                <select value={s.syncInterval ?? ''} onChange={(e) => setInterval_(s.id, e.target.value)} aria-label="Sync interval">
                  <option value="">never</option>
                  <option value="day">day</option>
                  <option value="week">week</option>
                  <option value="month">month</option>
                </select>
              </td>
              <td className="actions">
                <button type="button" onClick={() => setOpenId(s.id)}>
                  Rows
                </button>
                <button type="button" onClick={() => sync(s.id)} disabled={s.state === 'syncing'}>
                  Sync
                </button>
                <button type="button" onClick={() => remove(s.id)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
        {sources.data?.length === 0 && <p className="muted">No data sources yet.</p>}
      </Section>
      {open && <Rows key={open.id} access={access} source={open} name={names.data?.get(open.id)?.name} onChanged={() => void sources.reload()} />}
      {open && <SyncHooks key={`hooks:${open.id}`} botId={botId} dataSourceId={open.id} />}
    </>
  );
}

export function DataSourcesPage({ bot }: { bot: BotRow }) {
  const [access, setAccess] = useState<ChannelAccess>();
  return (
    <>
      <Section title={`Data sources of ${bot.name}`}>
        <ChannelPicker botId={bot.id} onAccess={setAccess} />
      </Section>
      {access && <SourceTable access={access} botId={bot.id} />}
    </>
  );
}
