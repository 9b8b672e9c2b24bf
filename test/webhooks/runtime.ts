// The test runtime with the webhooks module built with test options (short retry waits).
import { modules } from '../../src/modules.ts';
import { createWebhooksModule } from '../../src/webhooks/index.ts';
import type { WebhooksOptions } from '../../src/webhooks/state.ts';
import { useTestRuntime, type TestRuntimeOptions } from '../helpers/harness.ts';

export function useWebhooksRuntime(webhooks: WebhooksOptions, opts: Omit<TestRuntimeOptions, 'modules'> = {}) {
  const module = createWebhooksModule({ jitterRatio: 0, ...webhooks });
  const rt = useTestRuntime({ ...opts, modules: modules.map((m) => (m.name === 'webhooks' ? module : m)) });
  return { rt, module };
}
