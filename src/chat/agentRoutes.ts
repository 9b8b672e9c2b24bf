// Admin API for human agents (under /api/admin, admin token): escalated conversations per bot,
// claim, reply, release, and the messages of a conversation.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { parseInput, validate } from '../http/validate.ts';
import { agentMessages, claimConversation, listForAgents, postAgentReply, releaseConversation } from './agents.ts';
import { presentAgentConversation, presentAgentMessage } from './presenters.ts';
import { AdminConversationListSchema, AgentReplySchema, BotParamsSchema, ClaimSchema, ConversationParamsSchema } from './schema.ts';
import { PageQuerySchema } from '../http/pagination.ts';

export function chatAdminRoutes(router: Router, ctx: AppContext): void {
  router.get('/bots/:botId/conversations', validate(AdminConversationListSchema, 'query'), async (c) => {
    const { botId } = parseInput(BotParamsSchema, c.params);
    const { state, ...page } = c.state.input;
    const result = await listForAgents(botId, state, page);
    c.body = { success: true, conversations: result.items.map(presentAgentConversation), pagination: result.pagination };
  });

  router.post('/conversations/:conversationId/claim', validate(ClaimSchema), async (c) => {
    const { conversationId } = parseInput(ConversationParamsSchema, c.params);
    c.body = { success: true, conversation: presentAgentConversation(await claimConversation(ctx, conversationId, c.state.input.agent)) };
  });

  router.post('/conversations/:conversationId/messages', validate(AgentReplySchema), async (c) => {
    const { conversationId } = parseInput(ConversationParamsSchema, c.params);
    c.status = 201;
    c.body = { success: true, message: presentAgentMessage(await postAgentReply(ctx, conversationId, c.state.input.message)) };
  });

  router.get('/conversations/:conversationId/messages', validate(PageQuerySchema, 'query'), async (c) => {
    const { conversationId } = parseInput(ConversationParamsSchema, c.params);
    const result = await agentMessages(conversationId, c.state.input);
    c.body = { success: true, messages: result.items.map(presentAgentMessage), pagination: result.pagination };
  });

  router.post('/conversations/:conversationId/release', async (c) => {
    const { conversationId } = parseInput(ConversationParamsSchema, c.params);
    c.body = { success: true, conversation: presentAgentConversation(await releaseConversation(ctx, conversationId)) };
  });
}
