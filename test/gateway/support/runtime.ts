// The service's modules with the gateway swapped for one with test settings (short retry delays),
// and what tests that run the gateway's jobs themselves hand them.
import { randomUUID } from 'node:crypto';
import { modules } from '../../../src/modules.ts';
import { createGatewayModule, type GatewayOptions } from '../../../src/gateway/index.ts';
import { GatewayDeliveryModel } from '../../../src/gateway/model.ts';
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

/** Stores `count` deliveries of `event` as accepted and not yet processed; returns their ids. */
export async function storeWaiting(event: string, count = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body, deliveryId } = eventBody({ event });
    const id = randomUUID();
    await GatewayDeliveryModel.create({ id, source: 'relay', deliveryId, event, test: false, headers: {}, rawBody: body, receivedAt: new Date() });
    ids.push(id);
  }
  return ids;
}
