// The admin side of a bot's data sources (issue 3's admin API): names, last sync error, and the
// sync-trigger hooks whose URL (with its secret) is shown once, when created or regenerated.
import { useState } from 'react';
import { admin } from '../api.ts';
import { ErrorNote, SecretOnce, Section, useAction, useLoad } from '../components.tsx';

export interface DataSourceAdmin {
  id: string;
  name: string;
  lastError: string | null;
}
interface SyncHook {
  id: string;
  dataSourceId: string;
  enabled: boolean;
}

/** Names and last errors by data source id, from the admin API. */
export function useDataSourceNames(botId: string, version: unknown) {
  return useLoad(
    async () => {
      const res = await admin<{ dataSources: DataSourceAdmin[] }>('GET', `/bots/${botId}/data-sources?limit=100`);
      return new Map(res.dataSources.map((d) => [d.id, d]));
    },
    [botId, version],
  );
}

export async function renameDataSource(botId: string, dataSourceId: string, name: string): Promise<void> {
  await admin('PATCH', `/bots/${botId}/data-sources/${dataSourceId}`, { name });
}

export function SyncHooks({ botId, dataSourceId }: { botId: string; dataSourceId: string }) {
  const hooks = useLoad(() => admin<{ hooks: SyncHook[] }>('GET', `/bots/${botId}/sync-hooks`), [botId]);
  const [url, setUrl] = useState<string>();
  const action = useAction();
  const mine = (hooks.data?.hooks ?? []).filter((h) => h.dataSourceId === dataSourceId);
  const create = () =>
    action.run(async () => {
      const res = await admin<{ url: string }>('POST', `/bots/${botId}/data-sources/${dataSourceId}/sync-hooks`);
      setUrl(res.url);
      await hooks.reload();
    });
  const toggle = (h: SyncHook) =>
    action.run(async () => {
      await admin('PUT', `/bots/${botId}/sync-hooks/${h.id}/enabled`, { enabled: !h.enabled });
      await hooks.reload();
    });
  const regenerate = (h: SyncHook) =>
    action.run(async () => {
      if (!confirm('Regenerate the hook URL? The old URL stops working at once.')) return;
      setUrl((await admin<{ url: string }>('POST', `/bots/${botId}/sync-hooks/${h.id}/secret`)).url);
    });
  const remove = (h: SyncHook) =>
    action.run(async () => {
      await admin('DELETE', `/bots/${botId}/sync-hooks/${h.id}`);
      await hooks.reload();
    });

  return (
    <Section
      title="Sync-trigger hooks"
      actions={
        <button type="button" onClick={create} disabled={action.busy}>
          New hook URL
        </button>
      }
    >
      <p className="muted">Any request to a hook's URL starts a sync of this data source. The URL holds its secret: treat it as a password. New hooks start disabled.</p>
      {url && <SecretOnce label="Hook URL" value={url} onDismiss={() => setUrl(undefined)} />}
      <ErrorNote error={hooks.error ?? action.error} />
      <table aria-label="Sync hooks">
        <tbody>
          {mine.map((h) => (
            <tr key={h.id}>
              <td>
                <code>{h.id}</code>
              </td>
              <td>{h.enabled ? 'enabled' : 'disabled'}</td>
              <td className="actions">
                <button type="button" onClick={() => toggle(h)} disabled={action.busy}>
                  {h.enabled ? 'Disable' : 'Enable'}
                </button>
                <button type="button" onClick={() => regenerate(h)} disabled={action.busy}>
                  New URL
                </button>
                <button type="button" onClick={() => remove(h)} disabled={action.busy}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
