// The reference's groups: one tag per domain, so the page reads as chat, data sources, webhooks,
// the gateway and the admin areas rather than by router. A route is placed by its path.

export interface TagRule {
  name: string;
  description: string;
  /** Matches the OpenAPI path (`/api/admin/bots/{botId}/webhooks`). */
  test: RegExp;
}

const P = String.raw`^/api/public/channels/\{channelId\}/\{version\}`;
const BOT = String.raw`^/api/admin/bots/\{botId\}`;

/** In the order the page shows them; the first rule whose pattern matches a path names its tag. */
export const TAG_RULES: TagRule[] = [
  { name: 'Chat', description: 'Conversations and messages with a bot (public API: `X-API-Secret-Key`).', test: new RegExp(`${P}/(conversation|conversations|message|messages)$`) },
  { name: 'Data sources', description: "A bot's knowledge: data sources, their rows and syncs (public API: `X-API-Secret-Key`).", test: new RegExp(`${P}/data-sources`) },
  {
    name: 'Sync hooks',
    description: 'Secret URLs that start a sync, and their management (admin API).',
    test: new RegExp(String.raw`^/api/public/hooks/|${BOT}/sync-hooks|${BOT}/data-sources/\{dataSourceId\}/sync-hooks$`),
  },
  { name: 'Admin: data sources', description: "A bot's data sources as the operator sees them: names and last sync outcome.", test: new RegExp(`${BOT}/data-sources`) },
  { name: 'Webhooks', description: 'Outgoing webhooks: configuration, test sends and the delivery log (admin API).', test: new RegExp(`${BOT}/webhooks`) },
  {
    name: 'Agents',
    description: 'Human handoff: the inbox of conversations, claims, agent replies and release (admin API).',
    test: new RegExp(String.raw`${BOT}/conversations$|^/api/admin/conversations/`),
  },
  {
    name: 'Admin: teams, bots and channels',
    description: 'Tenancy: teams and their plans, bots, API channels and their keys (admin API).',
    test: /^\/api\/admin\/(bootstrap|teams|bots|channels)(\/|$)/,
  },
  { name: 'Gateway', description: 'Signed webhook deliveries from outside senders, under five signature schemes (no API key: the signature authenticates).', test: /^\/gateway\// },
  { name: 'Admin: gateway', description: "The gateway's received deliveries, sources, rules and reload (admin API).", test: /^\/api\/admin\/gateway\// },
  { name: 'Operations', description: 'Health, readiness and metrics.', test: /^\/(healthz|readyz|metrics)$/ },
  { name: 'Documentation and console', description: 'This reference, its page and the operator console.', test: /^\/(docs|openapi\.json|console|favicon\.ico)?(\/|$)/ },
];

/** Routes no rule places (a module added later): grouped by area until a rule names their domain. */
export const FALLBACK_TAGS = { public: 'Public API', admin: 'Admin API', root: 'Other' } as const;

export function tagOfPath(path: string, area: keyof typeof FALLBACK_TAGS): string {
  return TAG_RULES.find((rule) => rule.test.test(path))?.name ?? FALLBACK_TAGS[area];
}
