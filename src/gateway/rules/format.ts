// The rule file format (docs/RULES.md): one rule per JSON file, or an array of rules. Every action
// field except `type`, `method` and `map` is a JSONata expression over the event
// `{ payload, headers, source, event, test, deliveryId, receivedAt, vars }`.
import { z } from 'zod';

const expr = z.string({ error: 'must be a JSONata expression (a string)' }).min(1, 'must not be empty');

export const HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;

const EmailActionSchema = z.strictObject({
  type: z.literal('email'),
  to: expr,
  cc: expr.optional(),
  bcc: expr.optional(),
  replyTo: expr.optional(),
  from: expr.optional(),
  subject: expr,
  text: expr,
  html: expr.optional(),
});

const HttpActionSchema = z.strictObject({
  type: z.literal('http'),
  method: z.enum(HTTP_METHODS).default('POST'),
  url: expr,
  headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'header names are HTTP tokens'), expr).default({}),
  body: expr.optional(),
});

const ResyncActionSchema = z.strictObject({
  type: z.literal('resync'),
  /** Name of the failed data source (the sync.failure payload carries the name only). */
  dataSource: expr.default('payload.dataSource'),
  /** An expression giving a data source id outright; skips the lookup. */
  dataSourceId: expr.optional(),
  /** Data source name → id, since the public API's data source object has no name. */
  map: z.record(z.string(), z.string().uuid('map values must be data source ids (UUID)')).default({}),
});

const LogActionSchema = z.strictObject({
  type: z.literal('log'),
  message: expr,
  level: z.enum(['info', 'warn']).default('info'),
});

export const ActionSchema = z.discriminatedUnion('type', [EmailActionSchema, HttpActionSchema, ResyncActionSchema, LogActionSchema], {
  error: 'type must be one of email, http, resync, log',
});
export type ActionDefinition = z.infer<typeof ActionSchema>;
export type ActionType = ActionDefinition['type'];

export const RuleSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'name: letters, digits, . _ - (at most 100)'),
  description: z.string().optional(),
  enabled: z.boolean().default(true),
  /** Source names; omitted or containing "*" means every source. */
  sources: z.array(z.string().min(1)).min(1).optional(),
  /** Event names; omitted or containing "*" means every event. */
  events: z.array(z.string().min(1)).min(1).optional(),
  /** Condition; the rule acts when it evaluates to true (omitted: always). */
  when: expr.optional(),
  actions: z.array(ActionSchema).min(1, 'a rule needs at least one action').max(20),
});
export type RuleDefinition = z.infer<typeof RuleSchema>;

export const RuleFileSchema = z.union([RuleSchema, z.array(RuleSchema).min(1)]);

/** The fields of each action type that hold expressions (headers.* are expressions too). */
export const EXPRESSION_FIELDS: Record<ActionType, string[]> = {
  email: ['to', 'cc', 'bcc', 'replyTo', 'from', 'subject', 'text', 'html'],
  http: ['url', 'body'],
  resync: ['dataSource', 'dataSourceId'],
  log: ['message'],
};
