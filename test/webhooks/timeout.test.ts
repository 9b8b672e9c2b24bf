// The 10 s total timeout (spec "Delivery behaviour" 2) reaches deliveries: with OUTBOUND_TIMEOUT_MS
// left at its default, the webhooks module builds its HTTP client with 10 000 ms, no attempt or
// test send overrides it, and the attempt's lease outlives it. The timeout mechanism itself (a sink
// that never answers) is covered in delivery.test.ts with the value set low.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { createOutboundClient, type OutboundClientOptions, type SendOptions } from '../../src/outbound/client.ts';
import { createWebhooksModule } from '../../src/webhooks/index.ts';
import { readAttempt } from '../../src/webhooks/attempts.ts';
import { DeliveryModel, type Delivery } from '../../src/webhooks/model.ts';
import { startSink, type Sink } from './sink.ts';
import { useRuntimeWithWebhooks } from './runtime.ts';

describe('the delivery timeout', () => {
  const built: OutboundClientOptions[] = [];
  const sends: Array<{ url: string; opts: SendOptions | undefined }> = [];
  // The real client, recording the options it is built with and the options of every send.
  const module = createWebhooksModule({
    createOutbound(options) {
      built.push(options);
      const client = createOutboundClient(options);
      return {
        send: (req, opts) => {
          sends.push({ url: req.url, opts });
          return client.send(req, opts);
        },
        close: () => client.close(),
      };
    },
  });
  // No OUTBOUND_TIMEOUT_MS in the env: the config default applies.
  const rt = useRuntimeWithWebhooks(module, { worker: false });
  let sink: Sink;
  let tenant: Tenant;
  beforeAll(async () => {
    sink = await startSink();
    tenant = await createTenant();
  });
  afterAll(() => sink?.close());

  /** The timeout a send actually ran with: its own option, else the client's. */
  const effectiveTimeouts = (path: string) => sends.filter((s) => s.url.endsWith(path)).map((s) => s.opts?.timeoutMs ?? built[0]!.timeoutMs);

  it('sends every delivery attempt with the default 10 s total timeout', async () => {
    expect(built).toHaveLength(1);
    expect(built[0]!.timeoutMs).toBe(10_000);
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'sync.success', url: `${sink.url}/event` });
    const webhookId = created.body.webhook.id as string;
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${webhookId}/enabled`, { enabled: true });
    await rt.runtime.ctx.events.emit({ type: 'sync.success', teamId: tenant.teamId, botId: tenant.botId, payload: { success: true } });
    const [request] = await waitFor(() => sink.requests.length === 1 && sink.requests);
    expect(effectiveTimeouts('/event')).toEqual([10_000]);

    const deliveryId = String(request!.headers['x-service-delivery-id']);
    const attempt = await waitFor(async () => {
      const a = await readAttempt((await DeliveryModel.findById(deliveryId).lean<Delivery>())!, 1);
      return a?.status === 'succeeded' && a;
    });
    // The lease must outlive the timeout, or a slow attempt would be taken for a dead one: 15 s. A
    // first attempt's claim is written with the delivery and lasts twice that, so it may also
    // wait for a slot (dispatcher.ts sends it only while a whole lease is left).
    expect(attempt.leaseUntil.getTime() - attempt.startedAt.getTime()).toBe(30_000);
  });

  it('sends a test send with the default 10 s total timeout', async () => {
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'sync.success', url: `${sink.url}/test-send` });
    const res = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks/${created.body.webhook.id}/test`);
    expect(res.body.test).toMatchObject({ status: 200, error: null });
    expect(effectiveTimeouts('/test-send')).toEqual([10_000]);
  });
});
