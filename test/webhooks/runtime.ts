// The test runtime with the webhooks module built with test options (short retry waits).
import { modules } from '../../src/modules.ts';
import { createWebhooksModule, type WebhooksModule } from '../../src/webhooks/index.ts';
import type { WebhooksOptions } from '../../src/webhooks/state.ts';
import { useTestRuntime, type TestRuntimeOptions } from '../helpers/harness.ts';

/** The test runtime with `module` in place of the default webhooks module. */
export function useRuntimeWithWebhooks(module: WebhooksModule, opts: Omit<TestRuntimeOptions, 'modules'> = {}) {
  return useTestRuntime({ ...opts, modules: modules.map((m) => (m.name === 'webhooks' ? module : m)) });
}

/** Webhooks built with `webhooks` over a jitter-free default, so injected waits are exact. */
export function useWebhooksRuntime(webhooks: WebhooksOptions, opts: Omit<TestRuntimeOptions, 'modules'> = {}) {
  const module = createWebhooksModule({ jitterRatio: 0, ...webhooks });
  return { rt: useRuntimeWithWebhooks(module, opts), module };
}
