// The service's modules with the gateway swapped for one with test settings (short retry delays).
import { modules } from '../../../src/modules.ts';
import { createGatewayModule, type GatewayOptions } from '../../../src/gateway/index.ts';

export function modulesWithGateway(opts: GatewayOptions = {}) {
  const gateway = createGatewayModule({ retryDelaysMs: [50, 50], rulesDebounceMs: 20, ...opts });
  return { gateway, modules: modules.map((m) => (m.name === 'gateway' ? gateway : m)) };
}
