// Response bodies of the admin API and the JSON root routes, one zod schema per presenter (the
// presenters in each domain's presenters.ts). The OpenAPI document shows them and
// test/openapi/adminResponses.test.ts parses real responses with them, so a field added to or
// dropped from a presenter fails there until the schema here follows.
import { z } from 'zod';
import { PLANS } from '../plans.ts';
import { CONVERSATION_STATES, MESSAGE_ROLES } from '../chat/model.ts';
import { ATTEMPT_STATUSES, CUSTOM_METHODS, DELIVERY_STATUSES } from '../webhooks/model.ts';
import { EVENT_TYPES } from '../events/model.ts';
import { ACTION_STATUSES, RULE_RESULTS } from '../gateway/model.ts';
import { SCHEME_NAMES } from '../gateway/schemes/types.ts';
import { CappedPagination, DataSourceBody, Done, isoOrNull, ok, Pagination } from './responses.ts';

const iso = z.string().datetime();
const int = z.number().int();
/** The gateway configuration an instance runs (gateway/configFollow.ts). */
const GatewayConfigRun = z.strictObject({ version: z.string(), generation: int, appliedAt: iso, error: z.string().nullable() });
const Person = z.strictObject({ name: z.string(), email: z.string() });
const StringMap = z.record(z.string(), z.string());

// platform/presenters.ts
const TeamBody = z.strictObject({
  id: z.string(),
  name: z.string(),
  plan: z.enum(PLANS),
  limits: z.strictObject({ dataSourcesPerBot: int, storageTokens: int, chatTokens: int, maxMessageLength: int }),
  usage: z.strictObject({ storageTokens: z.number(), chatTokens: z.number() }),
  createdAt: iso,
});
const BotBody = z.strictObject({
  id: z.string(),
  teamId: z.string(),
  name: z.string(),
  instructions: z.string(),
  welcomeMessage: z.string(),
  maxMessageLength: int.nullable(),
  powerUps: z.array(z.string()),
  createdAt: iso,
});
const ChannelBody = z.strictObject({ channelId: z.string(), botId: z.string(), teamId: z.string(), name: z.string(), enabled: z.boolean(), createdAt: iso });
const IssuedChannel = ok({ channel: ChannelBody, secretKey: z.string().startsWith('sk_') });

// datasources/presenters.ts
const DataSourceAdminBody = z.strictObject({
  ...DataSourceBody.shape,
  botId: z.string(),
  name: z.string(),
  lastError: z.string().nullable(),
  lastResults: z.record(z.string(), z.number()).nullable(),
});
const SyncHookBody = z.strictObject({ id: z.string(), botId: z.string(), dataSourceId: z.string(), enabled: z.boolean(), createdAt: isoOrNull, updatedAt: isoOrNull });
const IssuedSyncHook = ok({ hook: SyncHookBody, secret: z.string(), url: z.string().url() });

// chat/presenters.ts
const AgentConversationBody = z.strictObject({
  id: z.string(),
  createdAt: iso,
  initialMessage: z.string().nullable(),
  botId: z.string(),
  state: z.enum(CONVERSATION_STATES),
  userData: z.record(z.string(), z.unknown()),
  userEmail: z.string().nullable(),
  agent: Person.nullable(),
});
const AgentMessageBody = z.strictObject({
  id: z.string(),
  message: z.string(),
  role: z.enum(MESSAGE_ROLES),
  createdAt: iso,
  agent: Person.optional(),
  sources: z.array(z.strictObject({ rowId: z.string(), dataSourceId: z.string() })).optional(),
});

// webhooks/presenters.ts and testSend.ts
const WebhookBody = z.strictObject({
  id: z.string(),
  botId: z.string(),
  type: z.enum(EVENT_TYPES),
  enabled: z.boolean(),
  url: z.string(),
  dataSourceIds: z.array(z.string()),
  customPayload: z.strictObject({ enabled: z.boolean(), method: z.enum(CUSTOM_METHODS), headers: StringMap, body: z.string() }),
  standardWebhooks: z.boolean(),
  retryDelaysSeconds: z.array(z.number()).nullable(),
  concurrency: int.nullable(),
  ratePerSecond: z.number().nullable(),
  failingSince: isoOrNull,
  disabledAt: isoOrNull,
  disabledReason: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
});
const AttemptBody = z.strictObject({
  number: int,
  status: z.enum(ATTEMPT_STATUSES),
  startedAt: iso,
  finishedAt: isoOrNull,
  httpStatus: int.nullable(),
  durationMs: z.number().nullable(),
  /** Why the attempt failed without an answer (refused, timed out, blocked address), as the delivery's own error. */
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  responseBody: z.string().nullable(),
  responseTruncated: z.boolean(),
});
const WebhookDeliveryBody = z.strictObject({
  id: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  request: z.strictObject({ method: z.string(), url: z.string(), headers: StringMap, body: z.string() }),
  unresolved: z.array(z.string()),
  attemptCount: int,
  nextAttemptAt: isoOrNull,
  cancelReason: z.string().nullable(),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  test: z.boolean(),
  attempts: z.array(AttemptBody),
  createdAt: iso,
  finishedAt: isoOrNull,
});
const WebhookWithSecret = ok({ webhook: WebhookBody, secret: z.string() });
const TestSendBody = z.strictObject({
  deliveryId: z.string(),
  request: z.strictObject({ method: z.string(), url: z.string() }),
  status: int.nullable(),
  body: z.string(),
  bodyTruncated: z.boolean(),
  durationMs: z.number(),
  unresolved: z.array(z.string()),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
});

// gateway/presenters.ts
const ActionBody = z.strictObject({
  id: z.string(),
  index: int,
  type: z.string(),
  status: z.enum(ACTION_STATUSES),
  attempts: int,
  error: z.string().nullable(),
  result: z.unknown(),
  spec: z.record(z.string(), z.unknown()),
  createdAt: iso,
  finishedAt: isoOrNull,
});
const RuleOutcomeBody = z.strictObject({
  run: int,
  rule: z.string(),
  file: z.string(),
  result: z.enum(RULE_RESULTS),
  error: z.string().nullable(),
  evaluatedAt: iso,
  actions: z.array(ActionBody),
});
const gatewayDelivery = {
  id: z.string(),
  source: z.string(),
  deliveryId: z.string(),
  event: z.string(),
  test: z.boolean(),
  signed: z.strictObject({ deliveryId: z.boolean(), event: z.boolean(), test: z.boolean() }),
  receivedAt: iso,
  run: int,
  processedRun: int,
  processedAt: isoOrNull,
  rules: z.array(RuleOutcomeBody),
};
const GatewayDeliveryBody = z.strictObject(gatewayDelivery);
/** GET one delivery adds what was received: the headers and the raw body. */
const GatewayDeliveryFull = z.strictObject({ ...gatewayDelivery, headers: StringMap.nullable(), body: z.string().nullable() });
const nullableString = z.string().nullable();
/** Never the secrets themselves: how many there are. */
const GatewaySourceBody = z.strictObject({
  name: z.string(),
  scheme: z.enum(SCHEME_NAMES),
  secrets: int,
  toleranceSeconds: z.number(),
  allowLegacySecretHeader: z.boolean(),
  maxBodyBytes: int,
  hmac: z
    .strictObject({
      header: z.string(),
      algorithm: z.string(),
      encoding: z.enum(['hex', 'base64']),
      prefix: z.string(),
      timestampHeader: nullableString,
      idHeader: nullableString,
      idPath: nullableString,
      eventHeader: nullableString,
      eventPath: nullableString,
    })
    .nullable(),
  resyncApi: z.strictObject({ baseUrl: z.string(), channelId: z.string() }).nullable(),
});
const ruleSet = {
  dir: z.string(),
  loadedAt: iso,
  rules: z.array(
    z.strictObject({ name: z.string(), file: z.string(), enabled: z.boolean(), sources: z.array(z.string()), events: z.array(z.string()), actions: z.array(z.string()) }),
  ),
  errors: z.array(z.unknown()),
  /** Rules naming a source GATEWAY_CONFIG does not define. */
  warnings: z.array(z.strictObject({ file: z.string(), rule: z.string(), source: z.string(), message: z.string() })),
};

const A = '/api/admin';
const BOT = `${A}/bots/{botId}`;
const WEBHOOK = `${BOT}/webhooks/{webhookId}`;
const SYNC_HOOK = `${BOT}/sync-hooks/{hookId}`;
const CONVERSATION = `${A}/conversations/{conversationId}`;

/** The success body of each admin operation and JSON root route, keyed like OPERATION_SUMMARIES. */
export const ADMIN_RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  'get /healthz': ok({ status: z.literal('ok') }),
  'get /readyz': z.strictObject({ success: z.boolean(), checks: z.strictObject({ database: z.boolean(), scheduler: z.boolean() }) }),
  // 202 on a new delivery (with the stored id), 200 on a duplicate of one already received.
  'post /gateway/{source}': ok({ duplicate: z.boolean(), deliveryId: z.string(), id: z.string().optional() }),
  // A sync hook answers GET, PUT, PATCH and DELETE as POST; it is documented once, under POST.
  'post /api/public/hooks/{hookId}/{secret}': Done,

  [`post ${A}/bootstrap`]: ok({ teamId: z.string(), botId: z.string(), channelId: z.string(), secretKey: z.string().startsWith('sk_') }),
  [`post ${A}/teams`]: ok({ team: TeamBody }),
  [`get ${A}/teams`]: ok({ teams: z.array(TeamBody) }),
  [`get ${A}/teams/{teamId}`]: ok({ team: TeamBody }),
  [`put ${A}/teams/{teamId}/plan`]: ok({ team: TeamBody }),
  [`post ${A}/bots`]: ok({ bot: BotBody }),
  [`get ${A}/bots`]: ok({ bots: z.array(BotBody) }),
  [`get ${BOT}`]: ok({ bot: BotBody }),
  [`patch ${BOT}`]: ok({ bot: BotBody }),
  [`post ${A}/channels`]: IssuedChannel,
  [`get ${A}/channels`]: ok({ channels: z.array(ChannelBody) }),
  [`post ${A}/channels/{channelId}/rotate`]: IssuedChannel,
  [`put ${A}/channels/{channelId}/enabled`]: ok({ channel: ChannelBody }),

  [`get ${BOT}/data-sources`]: ok({ dataSources: z.array(DataSourceAdminBody), pagination: Pagination }),
  [`get ${BOT}/data-sources/{dataSourceId}`]: ok({ dataSource: DataSourceAdminBody }),
  [`patch ${BOT}/data-sources/{dataSourceId}`]: ok({ dataSource: DataSourceAdminBody }),
  [`post ${BOT}/data-sources/{dataSourceId}/sync-hooks`]: IssuedSyncHook,
  [`get ${BOT}/sync-hooks`]: ok({ hooks: z.array(SyncHookBody) }),
  [`get ${SYNC_HOOK}`]: ok({ hook: SyncHookBody }),
  [`put ${SYNC_HOOK}/enabled`]: ok({ hook: SyncHookBody }),
  [`post ${SYNC_HOOK}/secret`]: IssuedSyncHook,
  [`delete ${SYNC_HOOK}`]: Done,

  [`get ${BOT}/conversations`]: ok({ conversations: z.array(AgentConversationBody), pagination: Pagination }),
  [`post ${CONVERSATION}/claim`]: ok({ conversation: AgentConversationBody }),
  [`post ${CONVERSATION}/messages`]: ok({ message: AgentMessageBody }),
  [`get ${CONVERSATION}/messages`]: ok({ messages: z.array(AgentMessageBody), pagination: Pagination }),
  [`post ${CONVERSATION}/release`]: ok({ conversation: AgentConversationBody }),

  [`post ${BOT}/webhooks`]: WebhookWithSecret,
  [`get ${BOT}/webhooks`]: ok({ webhooks: z.array(WebhookBody), pagination: Pagination }),
  [`get ${WEBHOOK}`]: ok({ webhook: WebhookBody }),
  [`patch ${WEBHOOK}`]: ok({ webhook: WebhookBody }),
  // `resent` (deliveries reopened) only when the hook is turned on.
  [`put ${WEBHOOK}/enabled`]: ok({ webhook: WebhookBody, resent: int.optional() }),
  [`delete ${WEBHOOK}`]: Done,
  [`post ${WEBHOOK}/secret`]: WebhookWithSecret,
  [`post ${WEBHOOK}/test`]: ok({ test: TestSendBody }),
  [`get ${WEBHOOK}/deliveries`]: ok({ deliveries: z.array(WebhookDeliveryBody), pagination: CappedPagination }),
  [`get ${WEBHOOK}/deliveries/{deliveryId}`]: ok({ delivery: WebhookDeliveryBody }),
  [`post ${WEBHOOK}/deliveries/{deliveryId}/resend`]: ok({ delivery: WebhookDeliveryBody }),

  [`get ${A}/gateway/deliveries`]: ok({ deliveries: z.array(GatewayDeliveryBody), pagination: CappedPagination }),
  [`get ${A}/gateway/deliveries/{id}`]: ok({ delivery: GatewayDeliveryFull }),
  [`post ${A}/gateway/deliveries/{id}/replay`]: ok({ id: z.string(), run: int }),
  [`get ${A}/gateway/sources`]: ok({
    sources: z.array(GatewaySourceBody),
    config: GatewayConfigRun.extend({ instance: z.string() }),
    instances: z.array(
      z.strictObject({ id: z.string(), role: z.enum(['api', 'worker', 'all']), host: z.string(), pid: int, startedAt: iso, heartbeatAt: iso, config: GatewayConfigRun.nullable() }),
    ),
    consistent: z.boolean(),
  }),
  [`get ${A}/gateway/rules`]: ok(ruleSet),
  [`post ${A}/gateway/reload`]: ok({ sources: z.array(z.string()), version: z.string(), generation: int, ...ruleSet }),
};
