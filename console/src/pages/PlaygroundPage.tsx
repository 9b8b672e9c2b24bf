// Chat playground: talks to the bot through the public 2.0 stream as one of its channels, showing the
// reply as it arrives (rendered as sanitised markdown), power-up activity and the conversation id.
import { useRef, useState, type FormEvent } from 'react';
import { publicApi, query, type ChannelAccess } from '../api.ts';
import { streamMessage, type StreamChunk } from '../stream.ts';
import { ChannelPicker, ErrorNote, Section, useAction, useLoad } from '../components.tsx';
import { useDataSourceNames } from './SyncHooks.tsx';
import type { BotRow } from './BotsPage.tsx';
import { Markdown } from '../markdown.tsx';

interface Source {
  rowId: string;
  dataSourceId: string;
}
interface Turn {
  role: 'user' | 'assistant' | 'tool' | 'system';
  text: string;
  sources?: Source[];
}

/** What a power-up reports for the page; its `message` is the reply text (or the model's cue), shown once there. */
function toolOutputNote(output: { message?: string; display?: { type?: string; state?: string; userEmail?: string | null } } | undefined): string {
  const display = output?.display;
  if (display?.type === 'handoff') return `handed to a human agent: ${display.state ?? 'Escalated'}${display.userEmail ? `, they will write to ${display.userEmail}` : ', no email yet'}`;
  return display ? `${display.type ?? 'result'}: ${JSON.stringify(display)}` : 'done';
}

/** The passages a reply used, by row name and data source name (the stream carries ids only). */
function SourceNames({ access, botId, sources }: { access: ChannelAccess; botId: string; sources: Source[] }) {
  const names = useDataSourceNames(botId, sources.length);
  const rows = useLoad(
    () =>
      Promise.all(
        sources.map((s) =>
          publicApi<{ dataSourceRow: { name: string } }>(access, 'GET', `/data-sources/row${query({ dataSourceId: s.dataSourceId, dataSourceRowId: s.rowId })}`).then(
            (r) => r.dataSourceRow.name,
            () => null, // a row deleted since the sync has no name left
          ),
        ),
      ),
    [sources.map((s) => s.rowId).join()],
  );
  return (
    <span className="muted sources" data-testid="sources">
      sources:{' '}
      {sources.map((s, i) => {
        const source = names.data?.get(s.dataSourceId)?.name;
        return (
          <span key={s.rowId} className="source">
            {i > 0 && ', '}
            {rows.data?.[i] ?? s.rowId}
            {source && ` (${source})`}
          </span>
        );
      })}
    </span>
  );
}

/** A note for the page about a power-up at work, or undefined for other chunks. */
function toolNote(chunk: StreamChunk): string | undefined {
  if (chunk.type === 'tool-input-available') return `uses ${chunk.toolName ?? 'a power-up'}: ${JSON.stringify(chunk.input ?? {})}`;
  if (chunk.type === 'tool-output-available') return toolOutputNote(chunk.output);
  return undefined;
}

/** The failure a chunk reports, if it reports one. */
function failureOf(chunk: StreamChunk): Error | undefined {
  if (chunk.type === 'error') return new Error(chunk.errorText ?? chunk.error ?? 'the reply failed');
  if (chunk.type === 'data-error') return new Error(`${chunk.data?.statusCode ?? ''} ${chunk.data?.statusMessage ?? 'model error'}`.trim());
  return undefined;
}

/** The reply turn after one chunk. Pure: React may run a state updater more than once. */
function applyChunk(turn: Turn, chunk: StreamChunk): Turn {
  if (chunk.type === 'text-delta') return { ...turn, text: turn.text + (chunk.delta ?? '') };
  if (chunk.type === 'data-turn') return { ...turn, sources: chunk.data?.sources ?? [] };
  return turn;
}

function Chat({ access, botId }: { access: ChannelAccess; botId: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversationId, setConversationId] = useState<string>();
  const [message, setMessage] = useState('');
  const action = useAction();
  const abort = useRef<AbortController | undefined>(undefined);

  const start = () =>
    action.run(async () => {
      const res = await publicApi<{ conversationId: string; response: string }>(access, 'POST', '/conversation', {});
      setConversationId(res.conversationId);
      setTurns(res.response ? [{ role: 'assistant', text: res.response }] : []);
    });

  const send = (e: FormEvent) => {
    e.preventDefault();
    const text = message.trim();
    if (!text) return;
    setMessage('');
    void action.run(async () => {
      setTurns((t) => [...t, { role: 'user', text }, { role: 'assistant', text: '' }]);
      abort.current = new AbortController();
      let failure: Error | undefined;
      const result = await streamMessage(
        access,
        { message: text, ...(conversationId ? { conversationId } : {}) },
        (chunk) => {
          if (chunk.type === 'data-conversation') setConversationId(chunk.data?.conversationId);
          failure ??= failureOf(chunk);
          // Side effects stay out of the updaters: a tool note is added once, before the reply turn.
          const note = toolNote(chunk);
          if (note !== undefined) setTurns((t) => [...t.slice(0, -1), { role: 'tool', text: note }, t[t.length - 1]!]);
          else setTurns((t) => [...t.slice(0, -1), applyChunk(t[t.length - 1]!, chunk)]);
        },
        abort.current.signal,
      ).catch((err) => {
        setTurns((t) => (t[t.length - 1]?.text === '' ? t.slice(0, -1) : t));
        throw err;
      });
      if (result.conversationId) setConversationId(result.conversationId);
      if (failure) {
        setTurns((t) => (t[t.length - 1]?.text === '' ? t.slice(0, -1) : t));
        throw failure;
      }
    });
  };

  return (
    <Section
      title="Conversation"
      actions={
        <button type="button" onClick={start} disabled={action.busy}>
          New conversation
        </button>
      }
    >
      <p className="muted">
        Conversation: <code data-testid="conversation-id">{conversationId ?? 'new on first message'}</code>
      </p>
      <ol className="chat" aria-live="polite">
        {turns.map((t, i) => (
          <li key={i} className={`turn ${t.role}`} data-role={t.role}>
            <span className="who">{t.role}</span>
            {t.role === 'assistant' && t.text ? (
              <Markdown className="text markdown" text={t.text} />
            ) : (
              <span className="text">{t.text || (action.busy && i === turns.length - 1 ? '…' : '')}</span>
            )}
            {t.sources && t.sources.length > 0 && <SourceNames access={access} botId={botId} sources={t.sources} />}
          </li>
        ))}
      </ol>
      <ErrorNote error={action.error} />
      <form onSubmit={send} className="inline chat-input" aria-label="Send a message">
        <input name="message" value={message} onChange={(e) => setMessage(e.target.value)} placeholder="Ask the bot…" autoComplete="off" />
        <button type="submit" disabled={action.busy || !message.trim()}>
          Send
        </button>
        {action.busy && (
          <button type="button" onClick={() => abort.current?.abort()}>
            Stop
          </button>
        )}
      </form>
    </Section>
  );
}

export function PlaygroundPage({ bot }: { bot: BotRow }) {
  const [access, setAccess] = useState<ChannelAccess>();
  return (
    <>
      <Section title={`Chat with ${bot.name}`}>
        <ChannelPicker botId={bot.id} onAccess={setAccess} />
      </Section>
      {access && <Chat key={access.channelId} access={access} botId={bot.id} />}
    </>
  );
}
