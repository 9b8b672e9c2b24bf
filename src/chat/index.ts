// The chat domain: conversations, the bot's replies (grounded or model), 2.0/1.0 streaming,
// limits, the human-handoff power-up and the agent admin API. See docs/CHAT.md.
import type { DomainModule } from '../module.ts';
import { chatPublicRoutes } from './routes.ts';
import { chatAdminRoutes } from './agentRoutes.ts';
import { pruneIdempotencyKeys } from '../http/idempotency.ts';

export const chatModule: DomainModule = {
  name: 'chat',
  publicRoutes: chatPublicRoutes,
  adminRoutes: chatAdminRoutes,
  prune: pruneIdempotencyKeys,
};
