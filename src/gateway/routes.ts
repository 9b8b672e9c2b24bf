// The gateway's HTTP surface: the intake (root, authenticated by signature) and the admin views.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { gatewayDeliveries } from '../observability/metrics.ts';
import { admitDelivery, authenticateDelivery, checkContentType, jsonBodyOf, readDelivery, readRawBody } from './intake.ts';
import { presentDelivery, presentRuleSet, presentSource } from './presenters.ts';
import { DeliveryListQuerySchema, DeliveryParamsSchema, type DeliveryListQuery } from './schema.ts';
import { acceptDelivery, getDelivery, listDeliveries, replayDelivery } from './service.ts';
import type { GatewayState } from './state.ts';
import { GatewayConfigError } from './sources.ts';
import { presentInstances, type ConfigFollower } from './configFollow.ts';

export const INTAKE_PATH = /^\/gateway\/[^/]+\/?$/;

export function intakeRoutes(router: Router, ctx: AppContext, state: () => GatewayState): void {
  router.post('/gateway/:source', async (c) => {
    const source = state().sources.get(c.params.source!);
    if (!source) {
      gatewayDeliveries.inc({ source: 'unknown', result: 'rejected' });
      throw new AppError('not_found', 'Unknown gateway source');
    }
    try {
      const type = c.request.type.toLowerCase();
      checkContentType(source, type);
      const rawBody = await readRawBody(c.req, source.maxBodyBytes);
      const now = ctx.clock.now();
      const auth = authenticateDelivery(source, c.req.headers, rawBody, now);
      await admitDelivery(source, auth, now);
      const body = jsonBodyOf(type, rawBody);
      const incoming = await readDelivery(source, c.req.headers, body, ctx.config.JSON_MAX_DEPTH, auth, now);
      const { id, duplicate } = await acceptDelivery(ctx, state(), source.name, incoming, body);
      c.status = duplicate ? 200 : 202;
      c.body = duplicate ? { success: true, duplicate: true, deliveryId: incoming.deliveryId } : { success: true, duplicate: false, deliveryId: incoming.deliveryId, id };
    } catch (err) {
      if (err instanceof AppError) gatewayDeliveries.inc({ source: source.name, result: 'rejected' });
      throw err;
    }
  });
}

export function adminRoutes(router: Router, ctx: AppContext, state: () => GatewayState, follower: () => ConfigFollower): void {
  router.get('/gateway/deliveries', validate(DeliveryListQuerySchema, 'query'), async (c) => {
    const q = c.state.input as DeliveryListQuery;
    const page = await listDeliveries({ source: q.source, event: q.event }, q, ctx.config.DELIVERY_LIST_TOTAL_LIMIT, ctx.clock.now());
    c.body = { success: true, deliveries: page.items.map((r) => presentDelivery(r)), pagination: page.pagination };
  });
  router.get('/gateway/deliveries/:id', validate(DeliveryParamsSchema, 'params'), async (c) => {
    c.body = { success: true, delivery: presentDelivery(await getDelivery(c.state.input.id), { body: true }) };
  });
  router.post('/gateway/deliveries/:id/replay', validate(DeliveryParamsSchema, 'params'), async (c) => {
    const { run } = await replayDelivery(ctx, c.state.input.id);
    c.status = 202;
    c.body = { success: true, id: c.state.input.id, run };
  });
  router.get('/gateway/sources', async (c) => {
    const instances = presentInstances(await ctx.fleet.live());
    const config = follower().applied();
    const consistent = instances.every((i) => i.config?.version === config.version && i.config.generation === config.generation && !i.config.error);
    c.body = { success: true, sources: [...state().sources.values()].map(presentSource), config: { ...config, instance: ctx.fleet.id }, instances, consistent };
  });
  router.get('/gateway/rules', (c) => {
    c.body = { success: true, ...presentRuleSet(state().rules.rules) };
  });
  // Reloads here, then every other instance on its next fleet poll (configFollow.ts).
  router.post('/gateway/reload', async (c) => {
    const s = state();
    let applied;
    try {
      applied = await follower().reloadEverywhere();
    } catch (err) {
      if (err instanceof GatewayConfigError) throw new AppError('bad_request', err.message);
      throw err;
    }
    c.body = { success: true, sources: [...s.sources.keys()], version: applied.version, generation: applied.generation, ...presentRuleSet(s.rules.rules) };
  });
}
