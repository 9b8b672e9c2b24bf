// The agent inbox (admin API, issue 5): escalated conversations of a bot; claim one, read and
// answer it as a human agent, and release it back to the bot.
import { useState, type FormEvent } from 'react';
import { admin } from '../api.ts';
import { ErrorNote, Section, Time, useAction, useLoad } from '../components.tsx';
import { Table } from '../table.tsx';
import type { BotRow } from './BotsPage.tsx';

interface Agent {
  name: string;
  email: string;
}
interface AgentConversation {
  id: string;
  createdAt: string;
  initialMessage: string | null;
  state: 'Open' | 'Escalated' | 'Active' | 'Resolved';
  userData: Record<string, unknown>;
  userEmail: string | null;
  agent: Agent | null;
}
interface AgentMessage {
  id: string;
  message: string;
  role: string;
  createdAt: string;
  agent?: Agent;
}

/** The handoff admin API, in one place. */
const paths = {
  list: (botId: string, state: string) => `/bots/${botId}/conversations?state=${state}&limit=100`,
  messages: (id: string) => `/conversations/${id}/messages?limit=100`,
  claim: (id: string) => `/conversations/${id}/claim`,
  reply: (id: string) => `/conversations/${id}/messages`,
  release: (id: string) => `/conversations/${id}/release`,
};

const AGENT_KEY = 'relay.agent';
function savedAgent(): Agent {
  try {
    return JSON.parse(sessionStorage.getItem(AGENT_KEY) ?? '') as Agent;
  } catch {
    return { name: '', email: '' };
  }
}

function Thread({ bot, conversation, agent, onMoved }: { bot: BotRow; conversation: AgentConversation; agent: Agent; onMoved: (state: 'Active' | 'Resolved') => void }) {
  const messages = useLoad(() => admin<{ messages: AgentMessage[] }>('GET', paths.messages(conversation.id)), [conversation.id, conversation.state]);
  const [reply, setReply] = useState('');
  const action = useAction();
  // Any operator with the token may answer a claimed conversation (a new tab has no saved name):
  // the reply goes out under the agent who claimed it, as the admin API records it.
  const claimedBy = conversation.state === 'Active' ? conversation.agent : null;
  const canClaim = Boolean(agent.name.trim() && agent.email.trim());

  const claim = () =>
    action.run(async () => {
      await admin('POST', paths.claim(conversation.id), { agent });
      onMoved('Active');
    });
  const release = () =>
    action.run(async () => {
      await admin('POST', paths.release(conversation.id));
      onMoved('Resolved');
    });
  const send = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      await admin('POST', paths.reply(conversation.id), { message: reply });
      setReply('');
      await messages.reload();
    });
  };
  const user = conversation.userData as { name?: string; email?: string };

  return (
    <Section
      title={`Conversation ${conversation.id}`}
      actions={
        <span className="inline">
          {conversation.state === 'Escalated' && !canClaim && (
            <span className="muted" data-testid="claim-hint">
              Fill in your name and email above to claim
            </span>
          )}
          {conversation.state === 'Escalated' && (
            <button type="button" onClick={claim} disabled={action.busy || !canClaim} title={canClaim ? undefined : 'Your name and email (above) go to the user'}>
              Claim{canClaim ? ` as ${agent.name}` : ''}
            </button>
          )}
          {conversation.state === 'Active' && (
            <button type="button" onClick={release} disabled={action.busy}>
              Release to the bot
            </button>
          )}
        </span>
      }
    >
      <p className="muted">
        State <span className="state" data-testid="conversation-state">{conversation.state}</span>
        {conversation.agent && ` · claimed by ${conversation.agent.name} <${conversation.agent.email}>`} · user {user.name ?? '—'}{' '}
        {conversation.userEmail ?? user.email ?? ''}
      </p>
      <ErrorNote error={messages.error ?? action.error} />
      <ol className="chat">
        {(messages.data?.messages ?? []).map((m) => (
          <li key={m.id} className={`turn ${m.role}`} data-role={m.role}>
            <span className="who">
              {m.role}
              {m.agent ? ` · ${m.agent.name}` : ''} · <Time value={m.createdAt} />
            </span>
            <span className="text">{m.message}</span>
          </li>
        ))}
      </ol>
      {claimedBy && (
        <form onSubmit={send} className="inline chat-input" aria-label="Reply as agent">
          <span className="muted">As {claimedBy.name}:</span>
          <input name="reply" value={reply} onChange={(e) => setReply(e.target.value)} placeholder="Reply to the user…" autoComplete="off" />
          <button type="submit" disabled={action.busy || !reply.trim()}>
            Send reply
          </button>
        </form>
      )}
    </Section>
  );
}

export function InboxPage({ bot }: { bot: BotRow }) {
  const [state, setState] = useState<'Escalated' | 'Active' | 'Resolved'>('Escalated');
  const list = useLoad(() => admin<{ conversations: AgentConversation[] }>('GET', paths.list(bot.id, state)), [bot.id, state]);
  const [openId, setOpenId] = useState<string>();
  const [agent, setAgent] = useState<Agent>(savedAgent);
  const updateAgent = (next: Agent) => {
    setAgent(next);
    sessionStorage.setItem(AGENT_KEY, JSON.stringify(next));
  };
  // Claim and release move the conversation to another list: show that list, where it is fresh.
  const current = list.data?.conversations.find((c) => c.id === openId);

  return (
    <>
      <Section title={`Agent inbox of ${bot.name}`}>
        <div className="inline">
          <label>
            Your name
            <input name="agentName" value={agent.name} onChange={(e) => updateAgent({ ...agent, name: e.target.value })} />
          </label>
          <label>
            Your email
            <input name="agentEmail" type="email" value={agent.email} onChange={(e) => updateAgent({ ...agent, email: e.target.value })} />
          </label>
          <label>
            Show
            <select value={state} onChange={(e) => setState(e.target.value as typeof state)} aria-label="Show">
              <option value="Escalated">escalated (waiting)</option>
              <option value="Active">claimed</option>
              <option value="Resolved">released</option>
            </select>
          </label>
        </div>
        <ErrorNote error={list.error} />
        <Table label="Conversations" columns={['Conversation', 'User', 'First message', 'Started', '']}>
          {(list.data?.conversations ?? []).map((c) => (
            <tr key={c.id} className={c.id === openId ? 'selected' : undefined} data-conversation={c.id}>
              <td>
                <code>{c.id}</code>
              </td>
              <td>{String((c.userData as { name?: string }).name ?? c.userEmail ?? '—')}</td>
              <td>{c.initialMessage ?? <span className="muted">—</span>}</td>
              <td>
                <Time value={c.createdAt} />
              </td>
              <td className="actions">
                <button
                  type="button"
                  onClick={() => setOpenId(c.id)}
                >
                  Open
                </button>
              </td>
            </tr>
          ))}
        </Table>
        {list.data?.conversations.length === 0 && <p className="muted">Nothing here.</p>}
      </Section>
      {current && <Thread key={current.id} bot={bot} conversation={current} agent={agent} onMoved={setState} />}
    </>
  );
}
