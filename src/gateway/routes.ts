// The gateway's HTTP surface: the intake (root, authenticated by signature) and the admin views.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { gatewayDeliveries } from '../observability/metrics.ts';
import { authenticateDelivery, isJsonMediaType, readDelivery, readRawBody } from './intake.ts';
import { presentDelivery, presentRuleSet, presentSource } from './presenters.ts';
import { DeliveryListQuerySchema, DeliveryParamsSchema, type DeliveryListQuery } from './schema.ts';
import { acceptDelivery, getDelivery, listDeliveries, replayDelivery } from './service.ts';
import type { GatewayState } from './state.ts';
import { GatewayConfigError } from './sources.ts';

export const INTAKE_PATH = /^\/gateway\/[^/]+\/?$/;

export function intakeRoutes(router: Router, ctx: AppContext, state: () => GatewayState): void {
  router.post('/gateway/:source', async (c) => {
    const source = state().sources.get(c.params.source!);
    if (!source) {
      gatewayDeliveries.inc({ source: 'unknown', result: 'rejected' });
      throw new AppError('not_found', 'Unknown gateway source');
    }
    try {
      if (!isJsonMediaType(c.get('content-type'))) throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
      const rawBody = await readRawBody(c.req, source.maxBodyBytes);
      const now = ctx.clock.now();
      const auth = authenticateDelivery(source, c.req.headers, rawBody, now);
      const incoming = await readDelivery(source, c.req.headers, rawBody, ctx.config.JSON_MAX_DEPTH, auth, now);
      const { id, duplicate } = await acceptDelivery(ctx, state(), source.name, incoming, rawBody);
      c.status = duplicate ? 200 : 202;
      c.body = duplicate ? { success: true, duplicate: true, deliveryId: incoming.deliveryId } : { success: true, duplicate: false, deliveryId: incoming.deliveryId, id };
    } catch (err) {
      if (err instanceof AppError) gatewayDeliveries.inc({ source: source.name, result: 'rejected' });
      throw err;
    }
  });
}

export function adminRoutes(router: Router, ctx: AppContext, state: () => GatewayState): void {
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
  router.get('/gateway/sources', (c) => {
    c.body = { success: true, sources: [...state().sources.values()].map(presentSource) };
  });
  router.get('/gateway/rules', (c) => {
    c.body = { success: true, ...presentRuleSet(state().rules.rules) };
  });
  router.post('/gateway/reload', (c) => {
    const s = state();
    try {
      s.reloadSources();
    } catch (err) {
      if (err instanceof GatewayConfigError) throw new AppError('bad_request', err.message);
      throw err;
    }
    c.body = { success: true, sources: [...s.sources.keys()], ...presentRuleSet(s.rules.reload()) };
  });
}
