// The chat API on both versions (spec "Chat"): thin handlers over service.ts and turn.ts.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import type { PublicState } from '../platform/publicAuth.ts';
import { validate } from '../http/validate.ts';
import { AnswererError } from './answerers/types.ts';
import { AppError } from '../http/errors.ts';
import { assertChatTokensLeft } from './limits.ts';
import { presentConversation, presentMessage } from './presenters.ts';
import { ConversationListSchema, ConversationStartSchema, MessageListSchema, MessageSendSchema, type MessageSendReq } from './schema.ts';
import { listConversations, listMessages, recordMessages, startConversation } from './service.ts';
import { prepareTurn, type PreparedTurn } from './turn.ts';
import { streamUiMessages } from './streams/sse.ts';
import { streamCompletionChunks } from './streams/ndjson.ts';
import { idempotent } from '../http/idempotency.ts';
import { answererFor } from './answerers/index.ts';
import { rememberTurn, replayedTurn } from './idempotentTurn.ts';

/** A whole reply. While an agent holds the conversation: `response: ''` and `handledBy: 'agent'`. */
async function wholeReply(turn: PreparedTurn) {
  let response = '';
  try {
    for await (const event of turn.run(new AbortController().signal)) {
      if (event.type === 'text-delta') response += event.delta;
      if (event.type === 'turn') return { success: true, conversationId: turn.conversationId, response, sources: event.sources, ...(event.handledBy ? { handledBy: event.handledBy } : {}) };
    }
  } catch (err) {
    if (!(err instanceof AnswererError)) throw err;
    const { provider, model, statusCode, statusMessage } = err;
    throw new AppError('upstream_error', err.message, { provider, model, statusCode, statusMessage });
  }
  throw new Error('the turn ended without saving');
}

export function chatPublicRoutes(router: Router<PublicState>, ctx: AppContext): void {
  router.post('/conversation', validate(ConversationStartSchema), idempotent('conversation', ctx.clock), async (c) => {
    const { bot, team, channel } = await c.state.tenant();
    assertChatTokensLeft(ctx, team);
    const { userData, message } = c.state.input as { userData?: Record<string, never>; message?: string };
    const conversation = await startConversation(ctx, { bot, channelId: channel.id }, { savedUserData: userData, initialMessage: message ?? null });
    // The welcome message opens the conversation's history, as the user saw it.
    if (bot.welcomeMessage) await recordMessages(ctx, conversation, [{ role: 'assistant', message: bot.welcomeMessage }]);
    c.body = { success: true, conversationId: conversation.id, response: bot.welcomeMessage ?? '' };
  });

  router.post('/message', validate(MessageSendSchema), idempotent('message', ctx.clock), async (c) => {
    const req = c.state.input as MessageSendReq;
    const retry = c.state.idempotency;
    // A retry of a kept reply answers it again without checking limits or running anything.
    let turn = retry?.replay ? replayedTurn(retry.replay, answererFor(ctx.config)) : await prepareTurn(ctx, await c.state.tenant(), req);
    // The response deadline may have answered 503 meanwhile (http/responseDeadline.ts). Nothing is
    // saved before the turn runs, so stop here rather than call the model for nobody.
    if (c.res.headersSent) return;
    if (retry && !retry.replay) turn = rememberTurn(retry, turn);
    if (!req.stream) {
      c.body = await wholeReply(turn);
    } else if (c.state.apiVersion === '2.0') {
      await streamUiMessages(c, turn, ctx.logger);
    } else {
      streamCompletionChunks(c, turn, ctx.clock.now(), ctx.logger);
    }
  });

  router.post('/conversations', validate(ConversationListSchema), async (c) => {
    const page = await listConversations(c.state.botId, c.state.input);
    c.body = { success: true, conversations: page.items.map(presentConversation), pagination: page.pagination };
  });

  router.post('/messages', validate(MessageListSchema), async (c) => {
    const { conversationId, ...pageQuery } = c.state.input;
    const page = await listMessages(c.state.botId, conversationId, pageQuery);
    c.body = { success: true, messages: page.items.map(presentMessage), pagination: page.pagination };
  });
}
