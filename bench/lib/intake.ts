// Background gateway intake in a process of its own, so its sending is neither the measured API's
// work nor the measuring client's: posts signed deliveries to argv[2] at argv[3] per second (open
// loop, bench/lib/load.ts paced) until { stop }, then answers { stopped: { sent, failed } }
// and exits. { target: url } moves the load to another instance without a pause (answered
// { targeted: url }). The delivery secret comes in GATEWAY_BENCH_SECRET.
// node:http over keep-alive sockets rather than undici's fetch: on 2 cores the sender competes with
// the API it loads, and fetch cost ~1 ms of CPU per delivery.
import http from 'node:http';
import { paced } from './load.ts';
import { signedGatewayDelivery } from './gatewayDelivery.ts';

let url = new URL(process.argv[2]!);
const rate = Number(process.argv[3]);
const secret = process.env.GATEWAY_BENCH_SECRET!;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let sent = 0;
let failed = 0;

function post(): Promise<void> {
  const { body, headers } = signedGatewayDelivery(secret);
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      if (res.statusCode! >= 300) failed++;
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => {
      failed++;
      resolve();
    });
    req.end(body);
  });
}

const stop = new AbortController();
const done = paced(
  Infinity,
  rate,
  () => {
    sent++;
    return post();
  },
  stop.signal,
);
process.send!({ started: true });
process.on('message', async (msg: { stop?: boolean; target?: string }) => {
  if (msg.target) {
    url = new URL(msg.target);
    process.send!({ targeted: msg.target });
    return;
  }
  if (!msg.stop) return;
  stop.abort();
  await done;
  agent.destroy();
  process.send!({ stopped: { sent, failed } }, () => process.exit(0));
});
