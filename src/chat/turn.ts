// One turn of a conversation: check limits, find or start the conversation, let the answerer reply
// (or stay silent while an agent holds the conversation), then save the user's message with the
// reply and charge its tokens. Streams and whole replies render the same turn events.
import type { AppContext } from '../context.ts';
import { newId, timeOrderedId } from '../clock.ts';
import { searchKnowledge, type KnowledgeHit } from '../knowledge/service.ts';
import { embedderFor } from '../knowledge/embeddings.ts';
import type { ApiChannel, Bot, Team } from '../platform/model.ts';
import { answererFor } from './answerers/index.ts';
import type { Answerer, AnswerInput, ToolOutput, TurnPart } from './answerers/types.ts';
import { HANDOFF_POWER_UP, handoffPowerUp, recordAwaitedEmail } from './handoff.ts';
import { assertChatTokensLeft, assertMessageLength, chargeChatTokens } from './limits.ts';
import type { Conversation, Message, Source } from './model.ts';
import type { MessageSendReq, UserData } from './schema.ts';
import { findConversation, recentMessages, recordMessages, startConversation, type NewMessage } from './service.ts';
import { countTokens } from './tokens.ts';
import { rowNames } from '../datasources/service.ts';

export interface ChannelAccess {
  bot: Bot;
  team: Team;
  channel: ApiChannel;
}

/** The end of a turn: ids of the messages it saved, oldest first, and the knowledge it used. */
export interface TurnSaved {
  type: 'turn';
  rowIds: string[];
  lastRowId: string | null;
  sources: Source[];
  /** Set when a human agent holds the conversation and the bot stayed silent. */
  handledBy?: 'agent';
}
export type TurnEvent = Exclude<TurnPart, { type: 'usage' } | { type: 'sources' }> | TurnSaved;

export interface PreparedTurn {
  /** Known before the conversation is stored, so a stream can announce it at once. */
  conversationId: string;
  /** The id the assistant's reply is saved under (`start.messageId` on 2.0). */
  messageId: string;
  answerer: Answerer;
  run(signal: AbortSignal): AsyncGenerator<TurnEvent>;
}

const KNOWLEDGE_LIMIT = 5;

export function sourcesOf(passages: KnowledgeHit[]): Source[] {
  const seen = new Map<string, Source>();
  for (const p of passages) if (!seen.has(p.rowId)) seen.set(p.rowId, { rowId: p.rowId, dataSourceId: p.dataSourceId });
  return [...seen.values()];
}

/**
 * Everything that can refuse the request happens here, before any stream starts (spec: a 429 is
 * never streamed). The rest of the work runs inside the turn, after the first byte is out.
 */
export async function prepareTurn(ctx: AppContext, access: ChannelAccess, req: MessageSendReq): Promise<PreparedTurn> {
  const { bot, team } = access;
  assertMessageLength(ctx, bot, team, req.message);
  assertChatTokensLeft(ctx, team);
  const existing = req.conversationId ? await findConversation(bot.id, req.conversationId) : null;
  const conversationId = existing?.id ?? timeOrderedId();
  const messageId = newId();
  const answerer = answererFor(ctx.config);
  return { conversationId, messageId, answerer, run: (signal) => runTurn(ctx, access, req, { existing, conversationId, messageId, answerer }, signal) };
}

interface TurnState {
  existing: Conversation | null;
  conversationId: string;
  messageId: string;
  answerer: Answerer;
}

async function* runTurn(ctx: AppContext, access: ChannelAccess, req: MessageSendReq, turn: TurnState, signal: AbortSignal): AsyncGenerator<TurnEvent> {
  const { bot } = access;
  const conversation =
    turn.existing ??
    (await startConversation(ctx, { bot, channelId: access.channel.id }, { id: turn.conversationId, eventUserData: req.userData, initialMessage: req.message }));
  const [history, passages] = await Promise.all([
    turn.existing ? recentMessages(conversation.id) : Promise.resolve([] as Message[]),
    conversation.state === 'Active' ? Promise.resolve([]) : searchKnowledge(bot.id, req.message, { limit: KNOWLEDGE_LIMIT, embedder: embedderFor(ctx.config), logger: ctx.logger, knowledgeStamp: bot.knowledgeStamp }),
  ]);
  // The user's message is saved with the rest of the turn, in one append (or alone on failure).
  const userMessage: NewMessage = { id: newId(), role: 'user', message: req.message };
  if (conversation.state === 'Active') {
    await recordMessages(ctx, conversation, [userMessage]);
    yield { type: 'turn', rowIds: [userMessage.id!], lastRowId: userMessage.id!, sources: [], handledBy: 'agent' };
    return;
  }
  const input = await answerInput(ctx, access, req, { conversation, history, passages }, signal);

  let text = '';
  let tokens = 0;
  let usedPassages: KnowledgeHit[] = [];
  const tools: NewMessage[] = [];
  const save = async (): Promise<TurnSaved> => {
    const sources = sourcesOf(usedPassages);
    const reply: NewMessage[] = text ? [{ id: turn.messageId, role: 'assistant', message: text, sources }] : [];
    const [saved] = await Promise.all([
      recordMessages(ctx, conversation, [userMessage, ...tools, ...reply]),
      chargeChatTokens(access.team.id, tokens || countTokens(req.message, text)),
    ]);
    const rowIds = saved.map((m) => m.id);
    return { type: 'turn', rowIds, lastRowId: rowIds[rowIds.length - 1] ?? null, sources };
  };

  // `finally` covers a consumer that stops early (a 1.0 client hanging up): what was produced is saved.
  let finished = false;
  let failed = false;
  try {
    for await (const part of turn.answerer.answer(input)) {
      if (part.type === 'usage') tokens = part.tokens;
      else if (part.type === 'sources') usedPassages = part.passages;
      else {
        if (part.type === 'text-delta') text += part.delta;
        if (part.type === 'tool-output-available') tools.push(toolMessage(part.toolName, part.output));
        yield part;
      }
    }
    finished = true;
  } catch (err) {
    failed = true;
    // A failed model call still records the user's message and any power-up activity (an escalation stays).
    await recordMessages(ctx, conversation, [userMessage, ...tools]);
    throw err;
  } finally {
    if (!finished && !failed) await save();
  }
  yield await save();
}

/** What the answerer sees: instructions for this request only, userData, context, history, passages, power-ups. */
async function answerInput(
  ctx: AppContext,
  { bot }: ChannelAccess,
  req: MessageSendReq,
  found: { conversation: Conversation; history: Message[]; passages: KnowledgeHit[] },
  signal: AbortSignal,
): Promise<AnswerInput> {
  const { conversation } = found;
  return {
    message: req.message,
    instructions: req.overrideSystemMessage ?? (req.extendSystemMessage ? `${bot.instructions}\n\n${req.extendSystemMessage}` : bot.instructions),
    userData: { ...(conversation.userData as UserData), ...req.userData },
    extendContext: req.extendContext,
    history: found.history,
    passages: found.passages,
    rowNames,
    powerUps: bot.powerUps.includes(HANDOFF_POWER_UP) ? [handoffPowerUp(ctx, conversation, bot, req.userData ?? {}) as never] : [],
    recordedEmail: await recordAwaitedEmail(conversation, req.message),
    stream: req.stream === true,
    signal,
  };
}

function toolMessage(toolName: string, output: ToolOutput): NewMessage {
  return { role: 'tool', toolName, message: typeof output?.message === 'string' ? output.message : JSON.stringify(output) };
}
