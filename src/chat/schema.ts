// Request schemas of the chat API (spec "Chat", "Extra context object") and the agent admin API.
// Every id is a UUID string, so an operator object such as {"$ne": null} is a 400, never a query.
import { z } from 'zod';
import { PageQuerySchema } from '../http/pagination.ts';
import { isStorableKey, uuid } from '../http/validate.ts';
import { CONVERSATION_STATES } from './model.ts';

const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'values must be strings, numbers or booleans' });
const text = (name: string, max = 100_000) => z.string({ error: `${name} must be a string` }).max(max, { error: `${name} is too long` });

/**
 * userData: `id` (string or number), `name`, `email`, `tel`. The spec does not validate the values,
 * but extra keys must be plain scalars under safe names: the object is stored as given.
 */
export const UserDataSchema = z
  .object({
    id: z.union([z.string().max(500), z.number()], { error: 'userData.id must be a string or a number' }).optional(),
    name: text('userData.name', 500).optional(),
    email: text('userData.email', 500).optional(),
    tel: text('userData.tel', 100).optional(),
  })
  .catchall(z.union([z.string().max(2000), z.number(), z.boolean(), z.null()], { error: 'userData values must be scalars' }))
  .refine((o) => Object.keys(o).length <= 50, { error: 'userData has too many fields' })
  .refine((o) => Object.keys(o).every(isStorableKey), {
    error: 'userData keys must be 1-100 characters, not start with $, and contain no dots or NUL characters',
  });
export type UserData = z.infer<typeof UserDataSchema>;

export const ExtendContextSchema = z.object(
  {
    custom: z.record(z.string().max(200), scalar, { error: 'extendContext.custom must be an object of scalar values' }).optional(),
    pageMeta: z
      .object(
        {
          url: z.url({ error: 'extendContext.pageMeta.url is required and must be a URL' }),
          title: text('pageMeta.title', 2000).optional(),
          description: text('pageMeta.description', 5000).optional(),
          'og:title': text('pageMeta.og:title', 2000).optional(),
          'og:description': text('pageMeta.og:description', 5000).optional(),
        },
        { error: 'extendContext.pageMeta must be an object' },
      )
      .optional(),
    markdown: text('extendContext.markdown').optional(),
  },
  { error: 'extendContext must be an object' },
);
export type ExtendContext = z.infer<typeof ExtendContextSchema>;

export const ConversationStartSchema = z.object({
  userData: UserDataSchema.optional(),
  message: text('message').optional(),
});

export const MessageSendSchema = z.object({
  message: z.string({ error: 'message is required and must be a string' }).min(1, { error: 'message must not be empty' }),
  conversationId: uuid('conversationId').optional(),
  stream: z.boolean({ error: 'stream must be a boolean' }).optional(),
  extendSystemMessage: text('extendSystemMessage').optional(),
  overrideSystemMessage: text('overrideSystemMessage').optional(),
  extendContext: ExtendContextSchema.optional(),
  userData: UserDataSchema.optional(),
});
export type MessageSendReq = z.infer<typeof MessageSendSchema>;

export const ConversationListSchema = PageQuerySchema;
export const MessageListSchema = PageQuerySchema.extend({ conversationId: uuid('conversationId') });

// Agent admin API.
export const AgentSchema = z.object({
  name: z.string({ error: 'agent.name is required' }).min(1).max(200),
  email: z.string({ error: 'agent.email is required' }).email({ error: 'agent.email must be an email address' }).max(320),
});
export const ClaimSchema = z.object({ agent: AgentSchema });
export const AgentReplySchema = z.object({ message: z.string({ error: 'message is required and must be a string' }).min(1).max(100_000) });
export const AdminConversationListSchema = PageQuerySchema.extend({
  state: z.enum(CONVERSATION_STATES).default('Escalated'),
});
export const ConversationParamsSchema = z.object({ conversationId: uuid('conversationId') });
export const BotParamsSchema = z.object({ botId: uuid('botId') });
