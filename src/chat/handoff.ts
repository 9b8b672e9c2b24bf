// The human-handoff power-up (spec "Conversation state as reported by webhooks"): a user asking for
// a human moves the conversation to Escalated, the user's email is asked for or recorded, and
// conversation.escalated fires once per escalation.
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ConversationModel, type Conversation } from './model.ts';
import { emitEscalated, type EscalationDetails } from './events.ts';
import type { PowerUp } from './answerers/types.ts';
import type { UserData } from './schema.ts';
import { trusted } from '../db/connection.ts';

/** The name in bot.powerUps. */
export const HANDOFF_POWER_UP = 'human-handoff';
export const HANDOFF_TOOL = 'human_handoff';

const HUMAN = '(?:(?:a|an|the|real|live|actual|human)\\s+)*(?:human|person|agent|representative|operator|someone|somebody)';
const INTENT = [
  new RegExp(`\\b(?:talk|speak|chat|connect|transfer|put)\\s+(?:me\\s+)?(?:to|with|through\\s+to)\\s+${HUMAN}\\b`, 'i'),
  /\b(?:want|need|get|request)\s+(?:a|an)\s+(?:real\s+|live\s+|actual\s+)?(?:human|person|representative|operator|human\s+agent|live\s+agent)\b/i,
  // One class for the tail: blanks, then marks, then blanks again backtracked quadratically on a message of blanks.
  /^\s*(?:a\s+)?(?:human|agent|operator|representative|real person)(?:\s+please)?[\s.!?]*$/i,
];
// Parts bounded as in RFC 5321 (64 before the @, 63 a label): an unbounded local part rescanned the rest
// of a message from every letter, quadratic in a message of letters with no @.
const EMAIL = /[A-Z0-9._%+-]{1,64}@[A-Z0-9-]{1,63}(?:\.[A-Z0-9-]{1,63})*\.[A-Z]{2,63}/i;

/** A clear request for a human, for the answerer that has no model to call the tool. */
export function asksForHuman(message: string): boolean {
  return INTENT.some((re) => re.test(message));
}

export function findEmail(text: string | undefined | null): string | null {
  return text ? (EMAIL.exec(text)?.[0] ?? null) : null;
}

interface BotRef {
  id: string;
  name: string;
}

/** Escalates unless already Escalated or claimed; emits the event only for the move it made. */
export async function escalate(ctx: AppContext, conversationId: string, bot: BotRef, userEmail: string | null, details: EscalationDetails = {}): Promise<boolean> {
  const set: Record<string, unknown> = { state: 'Escalated' };
  if (userEmail) set.userEmail = userEmail;
  const updated = await ConversationModel.findOneAndUpdate(
    { _id: conversationId, state: trusted({ $in: ['Open', 'Resolved'] }) },
    { $set: set },
    { returnDocument: 'after' },
  ).lean<Conversation>();
  if (!updated) return false;
  await emitEscalated(ctx, updated, bot, updated.userEmail ?? null, details);
  return true;
}

/** While escalated without an address, an email in the user's message is recorded for the agent. */
export async function recordAwaitedEmail(conversation: Conversation, message: string): Promise<string | null> {
  if (conversation.state !== 'Escalated' || conversation.userEmail) return null;
  const email = findEmail(message);
  if (!email) return null;
  const res = await ConversationModel.updateOne({ _id: conversation.id, state: 'Escalated', userEmail: null }, { $set: { userEmail: email } });
  return res.modifiedCount ? email : null;
}

const HandoffInput = z.object({
  reason: z.string().optional().describe('why the user wants a human'),
  email: z.string().optional().describe("the user's email address, if they gave one"),
  name: z.string().optional().describe("the user's name, if they gave one"),
  tel: z.string().optional().describe("the user's phone number, if they gave one"),
});
type HandoffInput = z.infer<typeof HandoffInput>;

export function handoffPowerUp(ctx: AppContext, conversation: Conversation, bot: BotRef, requestUserData: UserData): PowerUp<HandoffInput> {
  return {
    name: HANDOFF_TOOL,
    description: 'Hand the conversation to a human agent. Call this when the user asks to talk to a person.',
    inputSchema: HandoffInput,
    matchIntent(message) {
      if (!asksForHuman(message)) return null;
      const email = findEmail(message);
      return { reason: 'The user asked for a human agent', ...(email ? { email } : {}) };
    },
    async execute(input) {
      const saved = conversation.userData as UserData | undefined;
      const email = findEmail(input.email) ?? findEmail(saved?.email) ?? findEmail(requestUserData.email) ?? conversation.userEmail ?? null;
      // The agent who picks this up needs everything known about the user: the saved userData, this
      // request's (never saved, spec), and what the handoff itself collected, the latter winning.
      const collected = Object.fromEntries(Object.entries({ name: input.name, tel: input.tel, email: email ?? undefined }).filter(([, v]) => v));
      const userData = { ...saved, ...requestUserData, ...collected };
      const escalated = await escalate(ctx, conversation.id, bot, email, { userData, reason: input.reason ?? null });
      const display = { type: 'handoff', state: 'Escalated', userEmail: email };
      if (!escalated) return { message: 'A human agent has already been asked to join this conversation.', display };
      return {
        message: email
          ? `I have asked a human agent to join this conversation. They will reply here and can reach you at ${email}.`
          : 'I have asked a human agent to join this conversation. What email address can they reach you at?',
        display,
      };
    },
  };
}
