// Chat playground: talks to the bot through the public 2.0 stream with a channel key, showing the
// reply as it arrives (rendered as sanitised markdown), power-up activity and the conversation id.
import { useRef, useState, type FormEvent } from 'react';
import { publicApi, type ChannelAccess } from '../api.ts';
import { streamMessage, type StreamChunk } from '../stream.ts';
import { ChannelKeyPicker, ErrorNote, Section, useAction } from '../components.tsx';
import type { BotRow } from './BotsPage.tsx';
import { Markdown } from '../markdown.tsx';

interface Turn {
  role: 'user' | 'assistant' | 'tool' | 'system';
  text: string;
  sources?: unknown[];
}

function applyChunk(turn: Turn, chunk: StreamChunk, addTool: (text: string) => void): Turn {
  switch (chunk.type) {
    case 'text-delta':
      return { ...turn, text: turn.text + (chunk.delta ?? '') };
    case 'tool-input-available':
      addTool(`uses ${chunk.toolName ?? 'a power-up'}: ${JSON.stringify(chunk.input ?? {})}`);
      return turn;
    case 'tool-output-available':
      addTool(String(chunk.output?.message ?? JSON.stringify(chunk.output ?? {})));
      return turn;
    case 'data-turn':
      return { ...turn, sources: chunk.data?.sources ?? [] };
    case 'error':
      throw new Error(chunk.errorText ?? chunk.error ?? 'the reply failed');
    case 'data-error':
      throw new Error(`${chunk.data?.statusCode ?? ''} ${chunk.data?.statusMessage ?? 'model error'}`.trim());
    default:
      return turn;
  }
}

function Chat({ access }: { access: ChannelAccess }) {
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
      const addTool = (toolText: string) => setTurns((t) => [...t.slice(0, -1), { role: 'tool', text: toolText }, t[t.length - 1]!]);
      const result = await streamMessage(
        access,
        { message: text, ...(conversationId ? { conversationId } : {}) },
        (chunk) => {
          if (chunk.type === 'data-conversation') setConversationId(chunk.data?.conversationId);
          setTurns((t) => {
            const last = t[t.length - 1]!;
            return [...t.slice(0, -1), applyChunk(last, chunk, addTool)];
          });
        },
        abort.current.signal,
      ).catch((err) => {
        setTurns((t) => (t[t.length - 1]?.text === '' ? t.slice(0, -1) : t));
        throw err;
      });
      if (result.conversationId) setConversationId(result.conversationId);
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
            {t.sources && t.sources.length > 0 && <span className="muted sources">sources: {t.sources.length}</span>}
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
        <ChannelKeyPicker botId={bot.id} onAccess={setAccess} />
      </Section>
      {access && <Chat key={access.channelId} access={access} />}
    </>
  );
}
