// One-line summaries of every operation in the OpenAPI document, keyed by `method path` as the
// document spells them. test/openapi/document.test.ts fails for a route that has none, so a new route
// gets its line here (or a name: router.get('Summary', path, ...)).
const P = '/api/public/channels/{channelId}/{version}';
const A = '/api/admin';

export const OPERATION_SUMMARIES: Record<string, string> = {
  // Public API (spec): data sources and rows
  [`post ${P}/data-sources`]: 'Create an empty manual data source',
  [`post ${P}/data-sources/list`]: "List the bot's data sources",
  [`get ${P}/data-sources`]: 'Get a data source and its sync state',
  [`put ${P}/data-sources`]: "Set a data source's sync interval",
  [`delete ${P}/data-sources`]: 'Delete a data source and its rows',
  [`post ${P}/data-sources/sync`]: 'Start a sync (the bot learns the rows)',
  [`post ${P}/data-sources/row`]: 'Add rows to a data source',
  [`post ${P}/data-sources/row/list`]: "List a data source's rows",
  [`get ${P}/data-sources/row`]: 'Get one row with its content',
  [`put ${P}/data-sources/row`]: 'Update rows',
  [`delete ${P}/data-sources/row`]: 'Delete rows',
  // Public API (spec): chat
  [`post ${P}/conversation`]: 'Start a conversation (the reply is the welcome message)',
  [`post ${P}/message`]: 'Send a message and get the reply: whole, or streamed (2.0 SSE, 1.0 NDJSON)',
  [`post ${P}/conversations`]: "List the bot's conversations",
  [`post ${P}/messages`]: "List a conversation's messages",
  // Incoming sync-trigger hook: one operation, documented under POST (GET, PUT, PATCH and DELETE answer alike).
  ['post /api/public/hooks/{hookId}/{secret}']: 'Trigger a sync through a secret hook URL',
  // Admin API: tenancy
  [`post ${A}/bootstrap`]: 'Create a team, a bot and an API channel in one call',
  [`post ${A}/teams`]: 'Create a team',
  [`get ${A}/teams`]: 'List teams',
  [`get ${A}/teams/{teamId}`]: 'Get a team with its plan and limits',
  [`put ${A}/teams/{teamId}/plan`]: "Set a team's plan and limit overrides",
  [`post ${A}/bots`]: 'Create a bot in a team',
  [`get ${A}/bots`]: 'List bots',
  [`get ${A}/bots/{botId}`]: 'Get a bot',
  [`patch ${A}/bots/{botId}`]: 'Change a bot',
  [`post ${A}/channels`]: 'Create an API channel (its secret key is shown once)',
  [`get ${A}/channels`]: 'List API channels',
  [`post ${A}/channels/{channelId}/rotate`]: "Replace a channel's secret key",
  [`put ${A}/channels/{channelId}/enabled`]: 'Turn a channel on or off',
  // Admin API: data sources and sync hooks
  [`get ${A}/bots/{botId}/data-sources`]: "List a bot's data sources with names and last sync outcome",
  [`get ${A}/bots/{botId}/data-sources/{dataSourceId}`]: 'Get a data source (admin view)',
  [`patch ${A}/bots/{botId}/data-sources/{dataSourceId}`]: 'Name a data source',
  [`post ${A}/bots/{botId}/data-sources/{dataSourceId}/sync-hooks`]: 'Create a sync-trigger hook (its URL is shown once)',
  [`get ${A}/bots/{botId}/sync-hooks`]: "List a bot's sync-trigger hooks",
  [`get ${A}/bots/{botId}/sync-hooks/{hookId}`]: 'Get a sync-trigger hook',
  [`put ${A}/bots/{botId}/sync-hooks/{hookId}/enabled`]: 'Turn a sync-trigger hook on or off',
  [`post ${A}/bots/{botId}/sync-hooks/{hookId}/secret`]: "Replace a sync-trigger hook's secret (new URL)",
  [`delete ${A}/bots/{botId}/sync-hooks/{hookId}`]: 'Delete a sync-trigger hook',
  // Admin API: human agents
  [`get ${A}/bots/{botId}/conversations`]: "List a bot's conversations in a handoff state",
  [`post ${A}/conversations/{conversationId}/claim`]: 'Claim a conversation as an agent',
  [`post ${A}/conversations/{conversationId}/messages`]: 'Reply as the agent',
  [`get ${A}/conversations/{conversationId}/messages`]: "Read a conversation's messages",
  [`post ${A}/conversations/{conversationId}/release`]: 'Hand a conversation back to the bot',
  // Admin API: outgoing webhooks
  [`post ${A}/bots/{botId}/webhooks`]: 'Create an outgoing webhook (disabled; its secret is shown once)',
  [`get ${A}/bots/{botId}/webhooks`]: "List a bot's outgoing webhooks",
  [`get ${A}/bots/{botId}/webhooks/{webhookId}`]: 'Get an outgoing webhook',
  [`patch ${A}/bots/{botId}/webhooks/{webhookId}`]: 'Change an outgoing webhook',
  [`put ${A}/bots/{botId}/webhooks/{webhookId}/enabled`]: 'Turn an outgoing webhook on or off (on: optionally resend what failed while it was failing)',
  [`delete ${A}/bots/{botId}/webhooks/{webhookId}`]: 'Delete an outgoing webhook and its delivery log',
  [`post ${A}/bots/{botId}/webhooks/{webhookId}/secret`]: "Replace an outgoing webhook's secret",
  [`post ${A}/bots/{botId}/webhooks/{webhookId}/test`]: 'Send a sample event to the hook now',
  [`get ${A}/bots/{botId}/webhooks/{webhookId}/deliveries`]: "List a hook's deliveries with their attempts (total counted up to DELIVERY_LIST_TOTAL_LIMIT, then totalCapped)",
  [`get ${A}/bots/{botId}/webhooks/{webhookId}/deliveries/{deliveryId}`]: 'Get one delivery with its attempts',
  [`post ${A}/bots/{botId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend`]: 'Send a finished delivery again',
  // Gateway
  ['post /gateway/{source}']: 'Receive a signed webhook delivery from a configured source (scheme relay, standard-webhooks, github, stripe or hmac)',
  [`get ${A}/gateway/deliveries`]: 'List received gateway deliveries with rule and action outcomes, oldest first or newest first with order=desc (total counted up to DELIVERY_LIST_TOTAL_LIMIT, then totalCapped)',
  [`get ${A}/gateway/deliveries/{id}`]: 'Get a gateway delivery with its body and outcomes',
  [`post ${A}/gateway/deliveries/{id}/replay`]: 'Run the rules again on a stored delivery',
  [`get ${A}/gateway/sources`]: 'List the configured sources and their signature schemes (never their secrets)',
  [`get ${A}/gateway/rules`]: 'List the loaded rules and the files rejected',
  [`post ${A}/gateway/reload`]: 'Reload the gateway sources and rules',
  // Operations, documentation and console
  ['get /healthz']: 'Liveness: the process answers',
  ['get /readyz']: 'Readiness: the database answers',
  ['get /metrics']: 'Prometheus metrics',
  ['get /openapi.json']: 'This OpenAPI document',
  ['get /docs']: 'The API reference page (Swagger UI)',
  ['get /docs/{file}']: "A file of the API reference page",
  ['get /']: 'Redirect to the console',
  ['get /favicon.ico']: 'The site icon',
  ['get /console']: 'The web console',
  ['get /console/{file}']: 'A file of the web console',
};
