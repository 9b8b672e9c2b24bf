// Sample payloads for test sends, one per event type, in the shapes of spec "Payload shapes".
// They are fabricated (ids are fresh UUIDs) so a test send never reveals real conversations.
import { newId } from '../clock.ts';
import type { WebhookType } from './model.ts';

type Sample = (bot: { id: string; name: string }, now: Date) => Record<string, unknown>;

const conversation = (bot: { id: string; name: string }) => ({ id: newId(), botId: bot.id, botName: bot.name, channelType: 'api' });
const agent = { name: 'Sample Agent', email: 'agent@example.com' };

const SAMPLES: Record<WebhookType, Sample> = {
  'sync.success': (bot) => ({
    success: true,
    results: { totalTokens: 1200, modifiedRows: 2, totalDocuments: 10, unmodifiedRows: 8, totalDataSourceRows: 10 },
    bot: bot.name,
    dataSource: 'Sample data source',
  }),
  'sync.failure': (bot) => ({ success: false, reason: 'Sample failure reason', bot: bot.name, dataSource: 'Sample data source' }),
  'conversation.started': (bot, now) => ({
    event: 'conversation.started',
    timestamp: now.toISOString(),
    conversation: { ...conversation(bot), initialMessage: 'Hello, I have a question.', createdAt: now.toISOString() },
  }),
  'conversation.escalated': (bot, now) => ({
    event: 'conversation.escalated',
    timestamp: now.toISOString(),
    conversation: { ...conversation(bot), state: 'Escalated', userData: { name: 'Sample User', email: 'user@example.com', tel: '+1 555 0100' } },
    userEmail: 'user@example.com',
    reason: 'The user asked for a human agent',
  }),
  'conversation.claimed': (bot, now) => ({
    event: 'conversation.claimed',
    timestamp: now.toISOString(),
    conversation: { ...conversation(bot), state: 'Active' },
    agent,
  }),
  'webhook.disabled': (_bot, now) => ({
    event: 'webhook.disabled',
    timestamp: now.toISOString(),
    webhook: { id: newId(), type: 'conversation.started', url: 'https://example.com/hooks/relay' },
    reason: 'failing',
    failingSince: new Date(now.getTime() - 120 * 3600_000).toISOString(),
    disabledAt: now.toISOString(),
  }),
  'conversation.released': (bot, now) => ({
    event: 'conversation.released',
    timestamp: now.toISOString(),
    conversation: { ...conversation(bot), state: 'Resolved' },
    agent,
  }),
};

export function samplePayload(type: WebhookType, bot: { id: string; name: string }, now: Date): Record<string, unknown> {
  return SAMPLES[type](bot, now);
}
