// Sends deliveries to the gateway the way a sender does: exact bytes, signed with a source secret.
import { createHmac, randomUUID } from 'node:crypto';
import type { TestRuntime } from '../../helpers/harness.ts';

/** Independent of src/security so the tests check the wire format, not our own helper. */
export const hmacHeader = (body: Buffer | string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export function eventBody(payload: Record<string, unknown>, deliveryId: string = randomUUID()): { body: Buffer; deliveryId: string } {
  return { body: Buffer.from(JSON.stringify({ ...payload, deliveryId })), deliveryId };
}

export function postDelivery(
  rt: TestRuntime,
  source: string,
  body: Buffer | string,
  headers: Record<string, string>,
): ReturnType<ReturnType<TestRuntime['http']>['post']> {
  let req = rt.http().post(`/gateway/${source}`).set('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  // superagent JSON-encodes a Buffer; a string goes out byte for byte (our bodies are valid UTF-8).
  return req.send(typeof body === 'string' ? body : body.toString('utf8'));
}

/** A correctly signed delivery with the spec's headers. */
export function sendSigned(rt: TestRuntime, source: string, secret: string, payload: Record<string, unknown>, opts: { event?: string; test?: boolean; deliveryId?: string } = {}) {
  const { body, deliveryId } = eventBody(payload, opts.deliveryId);
  const headers: Record<string, string> = { 'X-Service-Signature': hmacHeader(body, secret), 'X-Service-Delivery-Id': deliveryId };
  if (opts.event) headers['X-Service-Event'] = opts.event;
  if (opts.test) headers['X-Service-Test'] = 'true';
  return Object.assign(postDelivery(rt, source, body, headers), { deliveryId });
}
