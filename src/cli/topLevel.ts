// The `relay` command's top-level commands and their descriptions, below both the loader
// (commands.ts) and the groups that register them.
export const TOP_LEVEL = {
  db: 'the embedded database (FerretDB); works offline',
  bootstrap: 'create a team, a bot and an API channel (offline, on the database); prints channelId and secretKey',
  teams: 'manage teams and their plans (through the running server)',
  bots: 'manage bots (through the running server)',
  channels: 'manage API channels and their secret keys (through the running server)',
  'data-sources': "a bot's manual data sources (names shown in sync events; through the running server)",
  'sync-hooks': 'incoming sync-trigger hooks (a secret URL that starts a sync; through the running server)',
  webhooks: "manage a bot's outgoing webhooks and their deliveries (through the running server)",
  conversations: 'human agents: escalated conversations, claim, reply, release (through the running server)',
  gateway: 'the webhook gateway: rule files, dry runs and signed test sends',
  rules: "the gateway's rule files",
  public: 'the public API over HTTP as an API channel (--channel/--key or RELAY_CHANNEL_ID/RELAY_SECRET_KEY)',
} as const;

export type TopLevelName = keyof typeof TOP_LEVEL;
