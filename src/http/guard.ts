// Middleware bound to the routes themselves (issue 21, F1/F2). A guard placed with router.use()
// or a path regex beside the routes matched paths its own way (case-sensitively, while the routes
// did not), so a request could reach a route around it. Here the guard is the head of each
// route's own stack: it runs exactly when that route matched, by the route's own matching.
import type Router from '@koa/router';
import type { Middleware } from 'koa';

/** Prepends `guards` to every route of `router`. Call once, after all routes are registered. */
export function guardRoutes(router: Router<any>, ...guards: Middleware<any, any>[]): void {
  for (const layer of router.stack) {
    // A router.use() layer would run outside the guard's protection of the routes after it.
    if (layer.methods.length === 0) throw new Error(`guardRoutes: router.use() layers are not allowed (${String(layer.path)})`);
    layer.stack.unshift(...(guards as typeof layer.stack));
  }
}

/** Options every router of the app is built with: paths match exactly as written, case included. */
export const ROUTER_MATCHING = { sensitive: true } as const;
