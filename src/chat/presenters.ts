// Public and agent-facing shapes of conversations and messages; internal fields stay inside.
import type { Conversation, Message } from './model.ts';

export const presentConversation = (c: Conversation) => ({
  id: c.id,
  createdAt: c.createdAt.toISOString(),
  initialMessage: c.initialMessage ?? null,
});

export const presentMessage = (m: Message) => ({
  id: m.id,
  message: m.message,
  role: m.role,
  createdAt: m.createdAt.toISOString(),
});

/**
 * What an agent sees: the handoff state and who the user said they are. The public fields written
 * out, not spread: V8 defines each field after a spread through its runtime, which cost the inbox
 * page about a tenth of its CPU (measured on the messages page).
 */
export const presentAgentConversation = (c: Conversation) => ({
  id: c.id,
  createdAt: c.createdAt.toISOString(),
  initialMessage: c.initialMessage ?? null,
  botId: c.botId,
  state: c.state,
  userData: c.userData ?? {},
  userEmail: c.userEmail ?? null,
  agent: c.agent ? { name: c.agent.name, email: c.agent.email } : null,
});

export const presentAgentMessage = (m: Message) => ({
  ...presentMessage(m),
  ...(m.agent ? { agent: { name: m.agent.name, email: m.agent.email } } : {}),
  ...(m.sources?.length ? { sources: m.sources.map((s) => ({ rowId: s.rowId, dataSourceId: s.dataSourceId })) } : {}),
});
