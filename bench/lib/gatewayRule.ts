// The rule the scale and gateway benches give the gateway, so each seeded delivery has the outcomes a
// real install's would (one rule outcome, one action outcome) and the delivery list reads them,
// and the wait for the worker to finish what seeding left it.
import fs from 'node:fs';
import path from 'node:path';
import { ActionOutcomeModel, GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { AttemptResultModel, DeliveryModel } from '../../src/webhooks/model.ts';
import { trusted } from '../../src/db/connection.ts';

// A `log` action: it runs the whole action path (claim, outcome) without sending anything.
export const BENCH_RULE = {
  name: 'bench-conversation-started',
  events: ['conversation.started'],
  when: '$exists(payload.conversation.id)',
  actions: [{ type: 'log', level: 'info', message: "'conversation started: ' & payload.conversation.id" }],
};

/** Writes the rule into `rulesDir` (created if missing). */
export function writeBenchRule(rulesDir: string): void {
  fs.mkdirSync(rulesDir, { recursive: true });
  fs.writeFileSync(path.join(rulesDir, `${BENCH_RULE.name}.json`), JSON.stringify(BENCH_RULE, null, 2));
}

/** Waits until the worker has processed every gateway delivery, run its actions and made every webhook delivery's first attempt. */
export async function drained(progress: (line: string) => void, pollMs = 10_000): Promise<void> {
  for (;;) {
    const gateway =
      (await GatewayDeliveryModel.countDocuments({ processedAt: null })) +
      (await ActionOutcomeModel.countDocuments({ status: trusted({ $in: ['pending', 'running', 'retrying'] }) }));
    // A first attempt writes a result row; a delivered row itself stays `pending` (and `fresh`).
    const webhooks = (await DeliveryModel.countDocuments({})) - (await AttemptResultModel.countDocuments({}));
    if (gateway === 0 && webhooks <= 0) return;
    progress(`waiting for the worker: ${gateway} gateway deliveries or actions unfinished, ${webhooks} webhook deliveries without an attempt`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
