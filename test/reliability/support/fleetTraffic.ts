// Traffic for the multi-process kill test: a sink that records what each outgoing webhook and
// gateway forward delivered (and can kill a process the moment a chosen request arrives), and
// clients that retry on the surviving api as a load balancer would.
import { createHmac, randomUUID } from 'node:crypto';
import { startSink, type Sink } from '../../webhooks/sink.ts';
import { publicApi, type Relay, type Tenant } from './cluster.ts';

export interface Receipt {
  kind: 'hook' | 'forward';
  /** The conversation id (hook) or the sender's gateway delivery id (forward). */
  key: string;
  /** The conversation's number (userData.n) for a hook. */
  n?: number;
  /** The first request for this conversation's webhook. */
  first: boolean;
  /** Answered 2xx: the receiver took it (the service may not have heard the answer). */
  accepted: boolean;
}

/** Kills `victim` when a receipt for which `when` holds arrives, while that request is held. */
export interface Tripwire {
  victim: Relay;
  when: (receipt: Receipt) => boolean;
  killedAt?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Webhooks go to /hook, forwards to /fwd/<delivery id>. Each is answered after `answerAfterMs`,
 * so requests are on the wire when a process dies; the first webhook of every `refuseEvery`th
 * conversation is answered 503, so its retry runs on a worker.
 */
export async function trafficSink(opts: { answerAfterMs: number; refuseEvery: number }) {
  const receipts: Receipt[] = [];
  const seen = new Set<number>();
  const tripwires: Tripwire[] = [];
  const sink: Sink = await startSink(async (req) => {
    const body = JSON.parse(req.raw.toString('utf8'));
    let receipt: Receipt;
    if (req.path === '/hook') {
      const n = body.conversation.userData.n as number;
      const first = !seen.has(n);
      seen.add(n);
      receipt = { kind: 'hook', key: body.conversation.id, n, first, accepted: !(first && n % opts.refuseEvery === 0) };
    } else {
      receipt = { kind: 'forward', key: req.path.slice('/fwd/'.length), first: false, accepted: true };
    }
    receipts.push(receipt);
    for (const wire of tripwires) {
      if (wire.killedAt === undefined && wire.when(receipt)) {
        wire.victim.child.kill('SIGKILL');
        wire.killedAt = Date.now();
      }
    }
    await sleep(opts.answerAfterMs);
    return receipt.accepted ? { status: 200, body: 'ok' } : { status: 503, body: 'busy' };
  });
  const accepted = (kind: Receipt['kind'], key: string) => receipts.filter((r) => r.kind === kind && r.key === key && r.accepted).length;
  return { sink, receipts, tripwires, accepted };
}

export function signedDelivery(secret: string, payload: Record<string, unknown>) {
  const deliveryId = randomUUID();
  const body = JSON.stringify({ ...payload, deliveryId });
  const headers = { 'content-type': 'application/json', 'x-service-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`, 'x-service-delivery-id': deliveryId };
  return { deliveryId, body, headers };
}

export async function postDelivery(relay: Relay, delivery: ReturnType<typeof signedDelivery>): Promise<number> {
  const res = await fetch(`${relay.url}/gateway/relay`, { method: 'POST', headers: delivery.headers, body: delivery.body });
  await res.arrayBuffer();
  return res.status;
}

/**
 * A client behind a load balancer: it sends to `through`, and when that instance does not answer
 * (killed) or answers 409/5xx, it sends the same request again to `fallback` until it succeeds.
 */
export function clients(tenant: Tenant, fallback: Relay) {
  async function untilAnswered<T>(through: Relay, send: (relay: Relay) => Promise<{ status: number; value: T }>): Promise<T> {
    let target = through;
    for (let tries = 0; ; tries++) {
      const res = await send(target).catch(() => null);
      if (res && res.status >= 200 && res.status < 300) return res.value;
      // 4xx other than 409 is a refusal, not a crash: the test fails on it.
      if (res && res.status >= 400 && res.status < 500 && res.status !== 409) throw new Error(`refused with ${res.status}: ${JSON.stringify(res.value)}`);
      // A key the dead instance held is answered 409 until its 30 s lease runs out.
      if (tries > 400) throw new Error('no instance answered');
      target = fallback;
      await sleep(250);
    }
  }
  return {
    /** Starts conversation `n` under its own Idempotency-Key; resolves to the id the client was given. */
    conversation: (n: number, through: Relay) =>
      untilAnswered(through, async (relay) => {
        const res = await publicApi(relay, tenant)('POST', '/conversation', { userData: { n } }, { 'idempotency-key': `conversation-${n}` });
        return { status: res.status, value: res.body?.conversationId as string };
      }),
    /** Sends a signed gateway delivery until one instance stores it (or says it has it). */
    delivery: (delivery: ReturnType<typeof signedDelivery>, through: Relay) =>
      untilAnswered(through, async (relay) => ({ status: await postDelivery(relay, delivery), value: delivery.deliveryId })),
  };
}

/** Runs the tasks `width` at a time. */
export async function inParallel(tasks: Array<() => Promise<unknown>>, width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
}
