// Conversation events (spec "Payload shapes"): one builder per event, emitted through the event bus.
import type { AppContext } from '../context.ts';
import type { EventType } from '../events/model.ts';
import type { Agent, Conversation } from './model.ts';

interface BotRef {
  id: string;
  name: string;
}

/** The API channel is the only channel this service runs, so `channelType` is always `api`. */
function conversationRef(conversation: Conversation, bot: BotRef) {
  return { id: conversation.id, botId: bot.id, botName: bot.name, channelType: 'api' as const };
}

async function emit(ctx: AppContext, type: EventType, conversation: Conversation, payload: Record<string, unknown>) {
  await ctx.events.emit({
    type,
    teamId: conversation.teamId,
    botId: conversation.botId,
    conversationId: conversation.id,
    payload: { event: type, timestamp: ctx.clock.now().toISOString(), ...payload },
  });
}

/**
 * `userData` rides inside `conversation` as it does for the escalated event: the saved userData
 * for /conversation, or the request's userData for a conversation /message created (not saved).
 */
export function emitStarted(ctx: AppContext, conversation: Conversation, bot: BotRef, userData: Record<string, unknown>) {
  return emit(ctx, 'conversation.started', conversation, {
    conversation: {
      ...conversationRef(conversation, bot),
      ...(conversation.initialMessage != null ? { initialMessage: conversation.initialMessage } : {}),
      createdAt: conversation.createdAt.toISOString(),
      userData,
    },
  });
}

export interface EscalationDetails {
  /** What is known of the user at the handoff; defaults to the conversation's saved userData. */
  userData?: Record<string, unknown>;
  /** Why the user wants a human, as the handoff recorded it. */
  reason?: string | null;
}

/** The spec's shape, plus a top-level `reason` (an addition receivers may ignore; docs/CHAT.md). */
export function emitEscalated(ctx: AppContext, conversation: Conversation, bot: BotRef, userEmail: string | null, details: EscalationDetails = {}) {
  return emit(ctx, 'conversation.escalated', conversation, {
    conversation: { ...conversationRef(conversation, bot), state: 'Escalated', userData: details.userData ?? conversation.userData ?? {} },
    userEmail,
    reason: details.reason ?? null,
  });
}

export function emitClaimed(ctx: AppContext, conversation: Conversation, bot: BotRef, agent: Agent) {
  return emit(ctx, 'conversation.claimed', conversation, {
    conversation: { ...conversationRef(conversation, bot), state: 'Active' },
    agent: { name: agent.name, email: agent.email },
  });
}

export function emitReleased(ctx: AppContext, conversation: Conversation, bot: BotRef, agent: Agent) {
  return emit(ctx, 'conversation.released', conversation, {
    conversation: { ...conversationRef(conversation, bot), state: 'Resolved' },
    agent: { name: agent.name, email: agent.email },
  });
}
