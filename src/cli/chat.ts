// `relay conversations …`: the human agent's side of the handoff from the shell (list escalated
// conversations of a bot, read one, claim, reply, release).
import type { Command } from 'commander';
import { agentMessages, claimConversation, listForAgents, postAgentReply, releaseConversation } from '../chat/agents.ts';
import { CONVERSATION_STATES, type ConversationState } from '../chat/model.ts';
import { presentAgentConversation, presentAgentMessage } from '../chat/presenters.ts';
import { AgentSchema, ConversationParamsSchema } from '../chat/schema.ts';
import { parseInput } from '../http/validate.ts';
import { printJson, withRuntime } from './context.ts';

function state(value: string): ConversationState {
  if (!CONVERSATION_STATES.includes(value as ConversationState)) throw new Error(`state must be one of ${CONVERSATION_STATES.join(', ')}`);
  return value as ConversationState;
}

const conversationId = (id: string) => parseInput(ConversationParamsSchema, { conversationId: id }).conversationId;

export function registerChatCommands(program: Command): void {
  const conversations = program.command('conversations').description('human agents: escalated conversations, claim, reply, release');
  conversations
    .command('list')
    .description("list a bot's conversations in a handoff state (default Escalated), oldest first")
    .requiredOption('--bot <botId>', 'bot id')
    .option('--state <state>', `state (${CONVERSATION_STATES.join(', ')})`, state, 'Escalated' as ConversationState)
    .option('--limit <n>', 'page size (1 to 100)', (v) => Number(v), 100)
    .option('--cursor <id>', 'previous page pagination.last')
    .action(async (o) =>
      printJson(
        await withRuntime(async () => {
          const page = await listForAgents(o.bot, o.state, { limit: o.limit, cursor: o.cursor });
          return { conversations: page.items.map(presentAgentConversation), pagination: page.pagination };
        }),
      ),
    );
  conversations
    .command('messages')
    .description("print a conversation's messages, oldest first")
    .argument('<conversationId>')
    .option('--limit <n>', 'page size (1 to 100)', (v) => Number(v), 100)
    .option('--cursor <id>', 'previous page pagination.last')
    .action(async (id, o) =>
      printJson(
        await withRuntime(async () => {
          const page = await agentMessages(conversationId(id), { limit: o.limit, cursor: o.cursor });
          return { messages: page.items.map(presentAgentMessage), pagination: page.pagination };
        }),
      ),
    );
  conversations
    .command('claim')
    .description('claim a conversation as an agent (state Active; the bot stops answering)')
    .argument('<conversationId>')
    .requiredOption('--name <name>', 'agent name')
    .requiredOption('--email <email>', 'agent email')
    .action(async (id, o) => {
      const agent = parseInput(AgentSchema, { name: o.name, email: o.email });
      printJson(await withRuntime(async (rt) => presentAgentConversation(await claimConversation(rt.ctx, conversationId(id), agent))));
    });
  conversations
    .command('reply')
    .description('post an agent reply to a claimed conversation')
    .argument('<conversationId>')
    .requiredOption('--message <text>', 'reply text')
    .action(async (id, o) => printJson(await withRuntime(async (rt) => presentAgentMessage(await postAgentReply(rt.ctx, conversationId(id), o.message)))));
  conversations
    .command('release')
    .description('hand a claimed conversation back to the bot (state Resolved)')
    .argument('<conversationId>')
    .action(async (id) => printJson(await withRuntime(async (rt) => presentAgentConversation(await releaseConversation(rt.ctx, conversationId(id))))));
}
