// The Koa app factory: composes the plumbing in http/ with every domain's routes. It never
// listens: main.ts does, and tests use app.callback().
import Koa from 'koa';
import Router from '@koa/router';
import type { AppContext } from './context.ts';
import type { DomainModule } from './module.ts';
import { errorMiddleware } from './http/errorMiddleware.ts';
import { jsonBody } from './http/body.ts';
import { responseDeadline } from './http/responseDeadline.ts';
import { CONSOLE_PUBLIC_PREFIX, createPublicRouter } from './http/publicApi.ts';
import { authenticateConsoleChannel, authenticatePublic, type PublicState } from './platform/publicAuth.ts';
import { adminAuth } from './http/adminAuth.ts';
import { refuseOperatorQueryKeys } from './http/validate.ts';
import { httpMetrics } from './observability/metrics.ts';
import { healthRoutes } from './observability/health.ts';
import { refreshJobGauges } from './jobs/metrics.ts';
import { docsRoutes } from './openapi/docs.ts';
import { consoleRoutes } from './console/routes.ts';
import { rememberRouters } from './http/routers.ts';
import { guardRoutes, ROUTER_MATCHING } from './http/guard.ts';

export function createApp(ctx: AppContext, modules: DomainModule[]): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by errorMiddleware, with secrets redacted
  const rawBodyPaths = modules.flatMap((m) => m.rawBodyPaths ?? []);
  const body = jsonBody({ limit: ctx.config.BODY_LIMIT, maxDepth: ctx.config.JSON_MAX_DEPTH, skip: (c) => rawBodyPaths.some((re) => re.test(c.path)) });

  app.use(httpMetrics);
  app.use(errorMiddleware(ctx.logger));
  app.use(responseDeadline(ctx.config.REQUEST_TIMEOUT_MS, ctx.logger, ctx.clock));
  app.use(refuseOperatorQueryKeys);

  const root = new Router(ROUTER_MATCHING);
  healthRoutes(root, { schedulerReady: () => Boolean(ctx.jobs), refreshGauges: () => refreshJobGauges() });
  docsRoutes(root, { serverUrl: ctx.config.PUBLIC_BASE_URL });
  consoleRoutes(root, ctx);
  for (const m of modules) m.rootRoutes?.(root, ctx);

  const publicRouter = createPublicRouter<PublicState>();
  for (const m of modules) m.publicRoutes?.(publicRouter, ctx);

  const admin = new Router({ prefix: '/api/admin', ...ROUTER_MATCHING });
  for (const m of modules) m.adminRoutes?.(admin, ctx);

  // The public routes again, for the web console: the same handlers, entered with the admin token
  // and a channel of the bot instead of its key (docs/CONSOLE.md). Not in /openapi.json: it is the
  // public API's mirror, not an API of its own.
  const consolePublic = createPublicRouter<PublicState>(CONSOLE_PUBLIC_PREFIX);
  for (const m of modules) m.publicRoutes?.(consolePublic, ctx);

  // Authentication first, then the body: nothing is read or parsed for a caller not yet known
  // (F6), and no request reaches a route around its guard (F1, F2). Root routes authenticate
  // themselves (hook secret in the path, gateway signature over the raw body).
  guardRoutes(root, body);
  guardRoutes(publicRouter, authenticatePublic, body);
  guardRoutes(admin, adminAuth(ctx.config.ADMIN_TOKEN), body);
  guardRoutes(consolePublic, adminAuth(ctx.config.ADMIN_TOKEN), authenticateConsoleChannel, body);

  rememberRouters(app, { root, public: publicRouter, admin, consolePublic }); // for the OpenAPI document and the route walk
  for (const router of [root, publicRouter, admin, consolePublic] as Router<any>[]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
