// Admin API for a bot's outgoing webhooks: CRUD, enable/disable, secret regeneration, test sends,
// the delivery log and resends. Every id is a UUID and every lookup is scoped by the bot.
import type Router from '@koa/router';
import type { AppContext } from '../context.ts';
import { parseInput, validate } from '../http/validate.ts';
import { PageQuerySchema } from '../http/pagination.ts';
import * as hooks from './service.ts';
import { enableWebhook, getDelivery, listDeliveries, reopenDelivery } from './deliveries.ts';
import { sendTest } from './testSend.ts';
import { laneOf } from './lanes.ts';
import { presentDelivery, presentWebhook } from './presenters.ts';
import { BotParams, DeliveryParams, WebhookCreateSchema, WebhookEnabledSchema, WebhookParams, WebhookUpdateSchema } from './schema.ts';
import type { WebhooksState } from './state.ts';

const HOOK = '/bots/:botId/webhooks/:webhookId';

export function webhookAdminRoutes(router: Router, ctx: AppContext, state: () => WebhooksState): void {
  router.post('/bots/:botId/webhooks', validate(WebhookCreateSchema), async (c) => {
    const { botId } = parseInput(BotParams, c.params);
    const { webhook, secret } = await hooks.createWebhook(ctx, botId, c.state.input);
    c.status = 201;
    c.body = { success: true, webhook: presentWebhook(webhook), secret };
  });
  router.get('/bots/:botId/webhooks', validate(PageQuerySchema, 'query'), async (c) => {
    const { botId } = parseInput(BotParams, c.params);
    const page = await hooks.listWebhooks(botId, c.state.input);
    c.body = { success: true, webhooks: page.items.map(presentWebhook), pagination: page.pagination };
  });
  router.get(HOOK, async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    c.body = { success: true, webhook: presentWebhook(await hooks.getWebhook(botId, webhookId)) };
  });
  router.patch(HOOK, validate(WebhookUpdateSchema), async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    c.body = { success: true, webhook: presentWebhook(await hooks.updateWebhook(ctx, botId, webhookId, c.state.input)) };
  });
  router.put(`${HOOK}/enabled`, validate(WebhookEnabledSchema), async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    const { enabled, resendFailed } = c.state.input as { enabled: boolean; resendFailed?: boolean };
    if (!enabled) {
      c.body = { success: true, webhook: presentWebhook(await hooks.setWebhookEnabled(botId, webhookId, false)) };
      return;
    }
    const s = state();
    const { webhook, resent } = await enableWebhook(ctx, botId, webhookId, s.schedule, { resendFailed });
    s.dispatcher.kick(resent.map((d) => ({ id: d.id, webhookId: d.webhookId, lane: laneOf(webhook) })));
    c.body = { success: true, webhook: presentWebhook(webhook), resent: resent.length };
  });
  router.delete(HOOK, async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    await hooks.deleteWebhook(botId, webhookId);
    c.body = { success: true };
  });
  router.post(`${HOOK}/secret`, async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    const { webhook, secret } = await hooks.regenerateSecret(botId, webhookId);
    c.body = { success: true, webhook: presentWebhook(webhook), secret };
  });
  router.post(`${HOOK}/test`, async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    c.body = { success: true, test: await sendTest(ctx, state().outbound, botId, webhookId) };
  });

  router.get(`${HOOK}/deliveries`, validate(PageQuerySchema, 'query'), async (c) => {
    const { botId, webhookId } = parseInput(WebhookParams, c.params);
    const page = await listDeliveries(botId, webhookId, c.state.input, ctx.config.DELIVERY_LIST_TOTAL_LIMIT);
    c.body = { success: true, deliveries: page.items.map(presentDelivery), pagination: page.pagination };
  });
  router.get(`${HOOK}/deliveries/:deliveryId`, async (c) => {
    const { botId, webhookId, deliveryId } = parseInput(DeliveryParams, c.params);
    c.body = { success: true, delivery: presentDelivery(await getDelivery(botId, webhookId, deliveryId)) };
  });
  router.post(`${HOOK}/deliveries/:deliveryId/resend`, async (c) => {
    const { botId, webhookId, deliveryId } = parseInput(DeliveryParams, c.params);
    const s = state();
    const { delivery, webhook } = await reopenDelivery(ctx, botId, webhookId, deliveryId, s.schedule);
    s.dispatcher.kick([{ id: delivery.id, webhookId: delivery.webhookId, lane: laneOf(webhook) }]);
    c.status = 202;
    c.body = { success: true, delivery: presentDelivery(delivery) };
  });
}
