// The gateway delivery list counts its total up to DELIVERY_LIST_TOTAL_LIMIT (here 3): exact below
// it (with or without filters), the limit and `totalCapped: true` above it.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi } from '../helpers/factories.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { modulesWithGateway } from './support/runtime.ts';
import { sendSigned } from './support/signing.ts';

const SECRET = 'list-total-secret-0123456789';
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] } } }, {}, { DELIVERY_LIST_TOTAL_LIMIT: '3' });

describe('gateway delivery list total', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const list = async (query: string) => (await adminApi(rt)('get', `/gateway/deliveries?${query}`).expect(200)).body;
  const send = async (event: string) => expect((await sendSigned(rt, 'relay', SECRET, { event }, { event })).status).toBe(202);

  it('gives the exact total up to the limit, then the limit with totalCapped', async () => {
    for (const event of ['order.paid', 'order.paid', 'order.refunded']) await send(event);
    const exact = await list('limit=2');
    expect(exact.pagination).toEqual({ total: 3, last: exact.deliveries[1].id, totalCapped: false });

    for (const event of ['order.paid', 'order.refunded']) await send(event);
    const capped = await list('limit=2');
    expect(capped.pagination).toEqual({ total: 3, last: capped.deliveries[1].id, totalCapped: true });
    expect((await list('limit=100')).deliveries).toHaveLength(5);
    // A filter counts its own matches: 2 refunds are under the limit.
    expect((await list('event=order.refunded')).pagination).toMatchObject({ total: 2, totalCapped: false });
  });
});
