// The gateway delivery list shows each delivery without its body and headers, and does not read
// them (the headers are half a stored delivery); the single delivery shows both.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { listDeliveries } from '../../src/gateway/service.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'list-shape-secret-0123456789';
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] } } });

describe('gateway delivery list shape', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });

  it('lists deliveries without body and headers, reading neither, while one delivery shows both', async () => {
    const request = sendSigned(rt, 'relay', SECRET, { event: 'order.paid', order: 7 }, { event: 'order.paid' });
    const sent = Object.assign(await request, { deliveryId: request.deliveryId });
    expect(sent.status).toBe(202);
    const id = sent.body.id as string;

    const listed = (await adminApi(rt)('get', '/gateway/deliveries?limit=100').expect(200)).body.deliveries;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, source: 'relay', event: 'order.paid', deliveryId: sent.deliveryId });
    expect(listed[0]).not.toHaveProperty('headers');
    expect(listed[0]).not.toHaveProperty('body');

    const page = await listDeliveries({}, { limit: 100 });
    expect(page.items[0]!.delivery.id).toBe(id);
    expect(page.items[0]!.delivery).not.toHaveProperty('headers');
    expect(page.items[0]!.delivery).not.toHaveProperty('rawBody');

    const one = (await adminApi(rt)('get', `/gateway/deliveries/${id}`).expect(200)).body.delivery;
    expect(one.headers['x-service-event']).toBe('order.paid');
    expect(JSON.parse(one.body)).toMatchObject({ order: 7, deliveryId: sent.deliveryId });
  });
});
