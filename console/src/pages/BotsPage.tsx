// Bots and their API channels: create a team or bot, create a channel, rotate its key, turn it on/off.
import { useState, type FormEvent } from 'react';
import { admin } from '../api.ts';
import { ErrorNote, SecretOnce, Section, Time, useAction, useLoad } from '../components.tsx';
import { Table } from '../table.tsx';

export interface BotRow {
  id: string;
  teamId: string;
  name: string;
  instructions?: string;
  welcomeMessage?: string;
  createdAt: string;
}
interface TeamRow {
  id: string;
  name: string;
  plan: string;
}
interface ChannelRow {
  channelId: string;
  botId: string;
  name?: string;
  enabled: boolean;
  createdAt: string;
}

function CreateBot({ teams, onCreated }: { teams: TeamRow[]; onCreated: (bot: BotRow) => void }) {
  const [teamId, setTeamId] = useState('');
  const [name, setName] = useState('');
  const [instructions, setInstructions] = useState('');
  const action = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const team = teamId || teams[0]?.id || (await admin<{ team: TeamRow }>('POST', '/teams', { name: 'My team' })).team.id;
      const res = await admin<{ bot: BotRow }>('POST', '/bots', { teamId: team, name, ...(instructions ? { instructions } : {}) });
      setName('');
      setInstructions('');
      onCreated(res.bot);
    });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label="Create a bot">
      {teams.length > 1 && (
        <label>
          Team
          <select value={teamId} onChange={(e) => setTeamId(e.target.value)}>
            {teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.plan})
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Name
        <input name="botName" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Instructions
        <textarea name="instructions" value={instructions} onChange={(e) => setInstructions(e.target.value)} rows={3} />
      </label>
      <button type="submit" disabled={action.busy || !name}>
        Create bot
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function Channels({ bot }: { bot: BotRow }) {
  const channels = useLoad(() => admin<{ channels: ChannelRow[] }>('GET', `/channels?botId=${bot.id}`), [bot.id]);
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const [name, setName] = useState('');
  const action = useAction();
  const showSecret = (channel: ChannelRow, secretKey: string, verb: string) => {
    setSecret({ label: `${verb} key of ${channel.name ?? channel.channelId}`, value: secretKey });
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const res = await admin<{ channel: ChannelRow; secretKey: string }>('POST', '/channels', { botId: bot.id, ...(name ? { name } : {}) });
      setName('');
      showSecret(res.channel, res.secretKey, 'New');
      await channels.reload();
    });
  };
  const rotate = (c: ChannelRow) =>
    action.run(async () => {
      if (!confirm(`Rotate the key of ${c.name ?? c.channelId}? The old key stops working at once.`)) return;
      const res = await admin<{ channel: ChannelRow; secretKey: string }>('POST', `/channels/${c.channelId}/rotate`);
      showSecret(res.channel, res.secretKey, 'Rotated');
    });
  const toggle = (c: ChannelRow) =>
    action.run(async () => {
      await admin('PUT', `/channels/${c.channelId}/enabled`, { enabled: !c.enabled });
      await channels.reload();
    });

  return (
    <Section title={`API channels of ${bot.name}`}>
      {secret && <SecretOnce label={secret.label} value={secret.value} onDismiss={() => setSecret(undefined)} />}
      <ErrorNote error={channels.error ?? action.error} />
      <Table columns={['Channel', 'Id', 'Enabled', 'Created', '']}>
        {(channels.data?.channels ?? []).map((c) => (
          <tr key={c.channelId} data-channel={c.channelId}>
            <td>{c.name ?? '—'}</td>
            <td>
              <code>{c.channelId}</code>
            </td>
            <td>{c.enabled ? 'yes' : 'no'}</td>
            <td>
              <Time value={c.createdAt} />
            </td>
            <td className="actions">
              <button type="button" onClick={() => rotate(c)} disabled={action.busy}>
                Rotate key
              </button>
              <button type="button" onClick={() => toggle(c)} disabled={action.busy}>
                {c.enabled ? 'Disable' : 'Enable'}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <form onSubmit={create} className="inline" aria-label="Create a channel">
        <input name="channelName" value={name} onChange={(e) => setName(e.target.value)} placeholder="channel name (optional)" />
        <button type="submit" disabled={action.busy}>
          Create channel
        </button>
      </form>
    </Section>
  );
}

export function BotsPage({ bots, reloadBots, selectBot }: { bots: BotRow[]; reloadBots: () => Promise<void>; selectBot: (id: string) => void }) {
  const teams = useLoad(() => admin<{ teams: TeamRow[] }>('GET', '/teams'), []);
  const [openId, setOpenId] = useState<string>();
  const open = bots.find((b) => b.id === openId) ?? bots[0];
  return (
    <>
      <Section title="Bots">
        <ErrorNote error={teams.error} />
        <Table columns={['Name', 'Id', 'Created', '']}>
          {bots.map((b) => (
            <tr key={b.id} className={b.id === open?.id ? 'selected' : undefined}>
              <td>{b.name}</td>
              <td>
                <code>{b.id}</code>
              </td>
              <td>
                <Time value={b.createdAt} />
              </td>
              <td className="actions">
                <button
                  type="button"
                  onClick={() => {
                    setOpenId(b.id);
                    selectBot(b.id);
                  }}
                >
                  Channels
                </button>
              </td>
            </tr>
          ))}
        </Table>
        {bots.length === 0 && <p className="muted">No bots yet.</p>}
        <h3>New bot</h3>
        <CreateBot
          teams={teams.data?.teams ?? []}
          onCreated={async (bot) => {
            await Promise.all([reloadBots(), teams.reload()]);
            setOpenId(bot.id);
            selectBot(bot.id);
          }}
        />
      </Section>
      {open && <Channels key={open.id} bot={open} />}
    </>
  );
}
