// Human agents (spec "Conversation state as reported by webhooks"): list escalated conversations,
// claim one (Active, conversation.claimed), reply, and release it to the bot (Resolved,
// conversation.released). Each move is one conditional update, atomic on MongoDB and on the patched
// FerretDB (docs/FERRETDB.md), so two agents cannot both claim, even from two processes.
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import type { PageQuery } from '../http/pagination.ts';
import { pageById } from '../http/pagination.ts';
import { getBot } from '../platform/service.ts';
import { emitClaimed, emitReleased } from './events.ts';
import { ConversationModel, type Agent, type Conversation, type ConversationState, type Message } from './model.ts';
import { pageOfMessages, recordMessages, transcriptOf } from './service.ts';
import { trusted } from '../db/connection.ts';

async function getConversation(conversationId: string): Promise<Conversation> {
  const conversation = await ConversationModel.findOne({ _id: conversationId }).lean<Conversation>();
  if (!conversation) throw new AppError('conversation_not_found', 'Conversation not found');
  return conversation;
}

export async function listForAgents(botId: string, state: ConversationState, page: PageQuery) {
  // The bot is read beside the page, not before it: one round trip fewer in turn. Its 404 still
  // wins over the page's own errors (a cursor of another list).
  const [bot, found] = await Promise.allSettled([getBot(botId), pageById<Conversation>(ConversationModel, { botId, state }, page)]);
  if (bot.status === 'rejected') throw bot.reason;
  if (found.status === 'rejected') throw found.reason;
  return found.value;
}

export async function claimConversation(ctx: AppContext, conversationId: string, agent: Agent): Promise<Conversation> {
  const claimed = await ConversationModel.findOneAndUpdate(
    { _id: conversationId, state: trusted({ $ne: 'Active' }) },
    { $set: { state: 'Active', agent: { name: agent.name, email: agent.email } } },
    { returnDocument: 'after' },
  ).lean<Conversation>();
  if (!claimed) {
    await getConversation(conversationId);
    throw new AppError('conflict', 'The conversation is already claimed by an agent');
  }
  await emitClaimed(ctx, claimed, await getBot(claimed.botId), agent);
  return claimed;
}

export async function postAgentReply(ctx: AppContext, conversationId: string, message: string): Promise<Message> {
  const conversation = await getConversation(conversationId);
  if (conversation.state !== 'Active' || !conversation.agent) throw new AppError('conflict', 'Claim the conversation before replying');
  const agent = { name: conversation.agent.name ?? '', email: conversation.agent.email ?? '' };
  const [saved] = await recordMessages(ctx, conversation, [{ role: 'agent', message, agent }]);
  return saved!;
}

export async function releaseConversation(ctx: AppContext, conversationId: string): Promise<Conversation> {
  const released = await ConversationModel.findOneAndUpdate({ _id: conversationId, state: 'Active' }, { $set: { state: 'Resolved' } }, { returnDocument: 'after' }).lean<Conversation>();
  if (!released) {
    await getConversation(conversationId);
    throw new AppError('conflict', 'Only a claimed conversation can be released');
  }
  const agent = { name: released.agent?.name ?? '', email: released.agent?.email ?? '' };
  await emitReleased(ctx, released, await getBot(released.botId), agent);
  return released;
}

export async function agentMessages(conversationId: string, page: PageQuery) {
  await getConversation(conversationId);
  return pageOfMessages(await transcriptOf(conversationId), page);
}
