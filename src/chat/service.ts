// Conversations and messages: start, find (always scoped by bot), list and record.
import type { AppContext } from '../context.ts';
import { newId, timeOrderedId } from '../clock.ts';
import { AppError } from '../http/errors.ts';
import { pageById, type Page, type PageQuery } from '../http/pagination.ts';
import type { Bot } from '../platform/model.ts';
import { ConversationModel, TranscriptModel, type Agent, type Conversation, type ConversationState, type Message, type MessageRole, type Source, type Transcript } from './model.ts';
import { emitStarted } from './events.ts';
import type { UserData } from './schema.ts';
import { findOwned } from '../db/byId.ts';

export interface ChannelScope {
  bot: Pick<Bot, 'id' | 'name' | 'teamId' | 'welcomeMessage'>;
  channelId: string;
}

export interface StartInput {
  /** Chosen up front when a stream announces the id before the conversation is stored. */
  id?: string;
  /** Saved on the conversation (POST /conversation). */
  savedUserData?: UserData;
  /** Included in the started event only (POST /message creating a conversation). */
  eventUserData?: UserData;
  initialMessage?: string | null;
}

/** Creates a conversation and its empty transcript, and emits conversation.started (spec "Event table"). */
export async function startConversation(ctx: AppContext, scope: ChannelScope, input: StartInput): Promise<Conversation> {
  const id = input.id ?? timeOrderedId();
  await TranscriptModel.create({ _id: id, botId: scope.bot.id, messages: [] });
  const doc = await ConversationModel.create({
    _id: id,
    id,
    botId: scope.bot.id,
    teamId: scope.bot.teamId,
    channelId: scope.channelId,
    userData: input.savedUserData ?? {},
    initialMessage: input.initialMessage ?? null,
    state: 'Open',
    createdAt: ctx.clock.now(),
  });
  const conversation = doc.toObject() as Conversation;
  await emitStarted(ctx, conversation, scope.bot, { ...(input.savedUserData ?? input.eventUserData ?? {}) });
  return conversation;
}

/** A conversation of this bot, or 404 (missing and another bot's look the same). */
export async function findConversation(botId: string, conversationId: string): Promise<Conversation> {
  const conversation = await findOwned<Conversation>(ConversationModel, conversationId, { botId });
  if (!conversation) throw new AppError('conversation_not_found', 'Conversation not found');
  return conversation;
}

export async function listConversations(botId: string, page: PageQuery, state?: ConversationState) {
  // _id is the conversation's id (model.ts): cursor pages need no anchor lookup
  return pageById<Conversation>(ConversationModel, state ? { botId, state } : { botId }, page);
}

/** All messages of a conversation, oldest first. */
export async function transcriptOf(conversationId: string): Promise<Message[]> {
  const transcript = await TranscriptModel.findOne({ _id: conversationId }).lean<Transcript>();
  return transcript?.messages ?? [];
}

/** The spec's list contract over a transcript: `cursor` is the previous page's last message id. */
export function pageOfMessages(messages: Message[], page: PageQuery): Page<Message> {
  let from = 0;
  if (page.cursor) {
    const at = messages.findIndex((m) => m.id === page.cursor);
    if (at < 0) throw new AppError('invalid_cursor', 'cursor does not name an item of this list');
    from = at + 1;
  }
  const items = messages.slice(from, from + page.limit);
  return { items, pagination: { total: messages.length, last: items.length ? items[items.length - 1]!.id : null } };
}

/**
 * The transcript is read beside the conversation (one wait where there were two) and shown only
 * once the conversation is found to be this bot's: another bot's answers 404 whatever was read.
 */
export async function listMessages(botId: string, conversationId: string, page: PageQuery) {
  const [conversation, messages] = await Promise.allSettled([findConversation(botId, conversationId), transcriptOf(conversationId)]);
  if (conversation.status === 'rejected') throw conversation.reason;
  if (messages.status === 'rejected') throw messages.reason;
  return pageOfMessages(messages.value, page);
}

/** The latest `limit` messages, oldest first: the history a reply is built from. */
export async function recentMessages(conversationId: string, limit = 40): Promise<Message[]> {
  return (await transcriptOf(conversationId)).slice(-limit);
}

export interface NewMessage {
  id?: string;
  role: MessageRole;
  message: string;
  sources?: Source[];
  toolName?: string;
  agent?: Agent;
}

/** Appends messages in order: one `$push`, atomic on MongoDB and on the patched FerretDB (docs/FERRETDB.md). */
export async function recordMessages(ctx: AppContext, conversation: Pick<Conversation, 'id'>, messages: NewMessage[]): Promise<Message[]> {
  if (!messages.length) return [];
  const now = ctx.clock.now();
  const docs = messages.map((m) => ({ ...m, id: m.id ?? newId(), createdAt: now })) as Message[];
  await TranscriptModel.updateOne({ _id: conversation.id }, { $push: { messages: { $each: docs } } });
  return docs;
}
