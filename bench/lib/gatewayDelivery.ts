// A signed gateway delivery as an upstream service sends it (conversation.started), for the benches
// that post to /gateway/:source.
import { randomUUID } from 'node:crypto';
import { signBody } from '../../src/security/signature.ts';

export function signedGatewayDelivery(secret: string, botName = 'Bench bot'): { deliveryId: string; body: string; headers: Record<string, string> } {
  const deliveryId = randomUUID();
  const body = JSON.stringify({ event: 'conversation.started', deliveryId, timestamp: new Date().toISOString(), conversation: { id: randomUUID(), botName, channelType: 'web' } });
  return {
    deliveryId,
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-signature': signBody(body, secret),
      'x-service-delivery-id': deliveryId,
      'x-service-event': 'conversation.started',
    },
  };
}
