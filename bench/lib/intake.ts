// Background gateway intake in a process of its own, so its sending is neither the measured API's
// work nor the measuring client's: posts signed deliveries to argv[2] at argv[3] per second (open
// loop, bench/lib/load.ts paced) until { stop }, then answers { stopped: { sent, failed } } and exits.
// { target: url } moves the load to another instance without a pause (answered { targeted: url }).
// The delivery secret comes in GATEWAY_BENCH_SECRET.
import { Agent, fetch } from 'undici';
import { paced } from './load.ts';
import { signedGatewayDelivery } from './gatewayDelivery.ts';

let url = process.argv[2]!;
const rate = Number(process.argv[3]);
const secret = process.env.GATEWAY_BENCH_SECRET!;
const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 256 });
let sent = 0;
let failed = 0;
const stop = new AbortController();
const done = paced(
  Infinity,
  rate,
  async () => {
    sent++;
    const { body, headers } = signedGatewayDelivery(secret);
    try {
      const res = await fetch(url, { method: 'POST', body, headers, dispatcher });
      await res.arrayBuffer();
      if (res.status >= 300) failed++;
    } catch {
      failed++;
    }
  },
  stop.signal,
);
process.send!({ started: true });
process.on('message', async (msg: { stop?: boolean; target?: string }) => {
  if (msg.target) {
    url = msg.target;
    process.send!({ targeted: url });
    return;
  }
  if (!msg.stop) return;
  stop.abort();
  await done;
  process.send!({ stopped: { sent, failed } }, () => process.exit(0));
});
