// `relay conversations …`: the human agent's side of the handoff from the shell (list escalated
// conversations of a bot, read one, claim, reply, release), through the running server's admin API.
import type { Command } from 'commander';
import { CONVERSATION_STATES } from '../chat/model.ts';
import { adminCall, seg } from './admin.ts';
import { TOP_LEVEL } from './topLevel.ts';
import { printJson } from './output.ts';

const page = (o: { limit: string; cursor?: string }, extra: Record<string, string> = {}) =>
  new URLSearchParams({ ...extra, limit: o.limit, ...(o.cursor ? { cursor: o.cursor } : {}) });

export function registerChatCommands(program: Command): void {
  const conversations = program
    .command('conversations')
    .description(TOP_LEVEL.conversations);
  conversations
    .command('list')
    .description("list a bot's conversations in a handoff state (default Escalated), oldest first")
    .requiredOption('--bot <botId>', 'bot id')
    .option('--state <state>', `state (${CONVERSATION_STATES.join(', ')})`, 'Escalated')
    .option('--limit <n>', 'page size (1 to 100)', '100')
    .option('--cursor <id>', 'previous page pagination.last')
    .action(async (o) => {
      const { conversations: items, pagination } = await adminCall('GET', `/bots/${seg(o.bot)}/conversations?${page(o, { state: o.state })}`);
      printJson({ conversations: items, pagination });
    });
  conversations
    .command('messages')
    .description("print a conversation's messages, oldest first")
    .argument('<conversationId>')
    .option('--limit <n>', 'page size (1 to 100)', '100')
    .option('--cursor <id>', 'previous page pagination.last')
    .action(async (id, o) => {
      const { messages, pagination } = await adminCall('GET', `/conversations/${seg(id)}/messages?${page(o)}`);
      printJson({ messages, pagination });
    });
  conversations
    .command('claim')
    .description('claim a conversation as an agent (state Active; the bot stops answering)')
    .argument('<conversationId>')
    .requiredOption('--name <name>', 'agent name')
    .requiredOption('--email <email>', 'agent email')
    .action(async (id, o) => printJson((await adminCall('POST', `/conversations/${seg(id)}/claim`, { agent: { name: o.name, email: o.email } })).conversation));
  conversations
    .command('reply')
    .description('post an agent reply to a claimed conversation')
    .argument('<conversationId>')
    .requiredOption('--message <text>', 'reply text')
    .action(async (id, o) => printJson((await adminCall('POST', `/conversations/${seg(id)}/messages`, { message: o.message })).message));
  conversations
    .command('release')
    .description('hand a claimed conversation back to the bot (state Resolved)')
    .argument('<conversationId>')
    .action(async (id) => printJson((await adminCall('POST', `/conversations/${seg(id)}/release`)).conversation));
}
