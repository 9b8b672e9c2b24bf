// The service's modules with the gateway swapped for one with test settings (short retry delays),
// and what tests that run the gateway's jobs themselves hand them.
import { randomUUID } from 'node:crypto';
import { modules } from '../../../src/modules.ts';
import { createGatewayModule, type GatewayOptions } from '../../../src/gateway/index.ts';
import { GatewayDeliveryBodyModel, GatewayDeliveryModel } from '../../../src/gateway/model.ts';
import { eventBody } from './signing.ts';

export function modulesWithGateway(opts: GatewayOptions = {}) {
  const gateway = createGatewayModule({ retryDelaysMs: [50, 50], rulesDebounceMs: 20, ...opts });
  return {
    gateway,
    modules: modules.map((m) => (m.name === 'gateway' ? gateway : m)),
    /** The rules and variables performProcess plans with. */
    view: () => ({ rules: gateway.state().rules.rules, vars: gateway.state().vars }),
    /** The services performAction runs with (no data sources). */
    services: () => ({ mailer: gateway.state().mailer, outbound: gateway.state().outbound, sourceOf: () => null }),
  };
}

/** Stores a delivery as intake does (its body record, then the delivery), accepted and not yet processed. */
export async function storeDelivery(d: { id?: string; deliveryId: string; event: string; body: Buffer; receivedAt?: Date }): Promise<string> {
  const id = d.id ?? randomUUID();
  await GatewayDeliveryBodyModel.create({ _id: id, headers: {}, rawBody: d.body });
  const signed = { deliveryId: false, event: false, test: false };
  await GatewayDeliveryModel.create({ id, source: 'relay', deliveryId: d.deliveryId, event: d.event, test: false, signed, receivedAt: d.receivedAt ?? new Date() });
  return id;
}

/** Stores `count` deliveries of `event` as accepted and not yet processed; returns their ids. */
export async function storeWaiting(event: string, count = 1, receivedAt = new Date()): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body, deliveryId } = eventBody({ event });
    ids.push(await storeDelivery({ deliveryId, event, body, receivedAt }));
  }
  return ids;
}
