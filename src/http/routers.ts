// The routers an app serves, remembered per app so the OpenAPI generator lists exactly what
// createApp registered and the security tests walk every route (createApp keeps returning the
// bare Koa app for its callers).
import type Koa from 'koa';
import type Router from '@koa/router';

export interface AppRouters {
  /** Health, metrics, docs, console and the domains' root routes (hooks, gateway intake). */
  root: Router;
  /** Mounted under /api/public/channels/:channelId/:version. */
  public: Router<any>;
  /** Mounted under /api/admin. */
  admin: Router;
  /** The public routes again under /api/admin/bots/:botId/channels/:channelId/public/:version, for the console; not documented. */
  consolePublic: Router<any>;
}

const routersByApp = new WeakMap<Koa, AppRouters>();

export function rememberRouters(app: Koa, routers: AppRouters): void {
  routersByApp.set(app, routers);
}

export function routersOf(app: Koa): AppRouters {
  const routers = routersByApp.get(app);
  if (!routers) throw new Error('routersOf: this app was not built by createApp');
  return routers;
}
