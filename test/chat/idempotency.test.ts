// Idempotent retries on POST /conversation and /message (docs/API_NOTES.md, "Idempotent retries"):
// the same key answers the first answer and creates nothing; a key still running is 409; the same
// key with another request is 422. Against a real OpenAI-compatible stub, whole and streamed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useListeningApp, useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { startOpenAIStub, type OpenAIStub } from '../helpers/openaiStub.ts';
import { ConversationModel } from '../../src/chat/model.ts';
import { IdempotencyKeyModel } from '../../src/http/idempotencyModel.ts';
import { readNdjson, readSse, textOf } from './support.ts';

const env: Record<string, string> = { OPENAI_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-stub' };
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
  env.OPENAI_BASE_URL = stub.url;
});
afterAll(() => stub?.close());

describe('Idempotency-Key on the chat API', () => {
  const rt = useTestRuntime({ env, worker: false });
  const app = useListeningApp(rt);
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
  });
  const conversations = () => ConversationModel.countDocuments({ botId: tenant.botId });
  const post = (version: '1.0' | '2.0', path: string, key: string, body: unknown) =>
    fetch(`${app.baseUrl}/api/public/channels/${tenant.channelId}/${version}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-secret-key': tenant.secretKey, 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  it('answers a retried conversation start with the first answer and starts no second conversation', async () => {
    const before = await conversations();
    const first = await api('post', '/conversation', { userData: { name: 'Ada' }, message: 'hi' }).set('Idempotency-Key', 'start-1');
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body in another key order is the same request.
    const retry = await api('post', '/conversation', { message: 'hi', userData: { name: 'Ada' } }).set('Idempotency-Key', 'start-1');
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await conversations()).toBe(before + 1);
    // Without a key, or with another one, each request is new.
    await api('post', '/conversation', { message: 'hi', userData: { name: 'Ada' } }).expect(200);
    await api('post', '/conversation', { message: 'hi', userData: { name: 'Ada' } }).set('Idempotency-Key', 'start-2').expect(200);
    expect(await conversations()).toBe(before + 3);
  });

  it('refuses the same key with another body with 422 and keeps the first answer', async () => {
    const first = await api('post', '/conversation', { message: 'one' }).set('Idempotency-Key', 'start-3').expect(200);
    const other = await api('post', '/conversation', { message: 'two' }).set('Idempotency-Key', 'start-3');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ success: false, code: 'idempotency_key_reused' });
    // On another route or version the key is another request too.
    const elsewhere = await api('post', '/message', { message: 'one' }).set('Idempotency-Key', 'start-3');
    expect(elsewhere.status).toBe(422);
    const again = await api('post', '/conversation', { message: 'one' }).set('Idempotency-Key', 'start-3').expect(200);
    expect(again.body.conversationId).toBe(first.body.conversationId);
  });

  it('keeps keys apart per channel', async () => {
    const other = await createTenant();
    const a = await api('post', '/conversation', {}).set('Idempotency-Key', 'shared-key').expect(200);
    const b = await publicApi(rt, other)('post', '/conversation', {}).set('Idempotency-Key', 'shared-key').expect(200);
    expect(b.body.conversationId).not.toBe(a.body.conversationId);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('documents the header and its 409 and 422 in the OpenAPI document', async () => {
    const doc = (await rt.http().get('/openapi.json').expect(200)).body;
    for (const path of ['conversation', 'message']) {
      const op = doc.paths[`/api/public/channels/{channelId}/{version}/${path}`].post;
      expect(op.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key')).toMatchObject({ in: 'header', required: false });
      expect(op.responses).toHaveProperty('409');
      expect(op.responses).toHaveProperty('422');
    }
  });

  it('refuses a malformed key with 400', async () => {
    const res = await api('post', '/conversation', {}).set('Idempotency-Key', 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'validation_failed' });
  });

  it('answers a retried whole message with the first reply, without a second model call or message', async () => {
    stub.enqueue({ text: 'The first reply.' });
    const calls = stub.requests.length;
    const first = await api('post', '/message', { message: 'Question?' }).set('Idempotency-Key', 'msg-1').expect(200);
    expect(first.body).toMatchObject({ success: true, response: 'The first reply.' });
    const retry = await api('post', '/message', { message: 'Question?' }).set('Idempotency-Key', 'msg-1').expect(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(stub.requests.length).toBe(calls + 1);
    expect(await ConversationModel.countDocuments({ id: first.body.conversationId })).toBe(1);
    const messages = await api('post', '/messages', { conversationId: first.body.conversationId }).expect(200);
    expect(messages.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('answers a concurrent duplicate with 409 while the first runs, then with the first reply', async () => {
    let open!: () => void;
    stub.enqueue({ text: 'Slow reply.', until: new Promise<void>((r) => (open = r)) });
    const first = api('post', '/message', { message: 'Slow?' }).set('Idempotency-Key', 'msg-2').then((r) => r);
    await waitFor(() => IdempotencyKeyModel.exists({ state: 'running' }));
    const duplicate = await api('post', '/message', { message: 'Slow?' }).set('Idempotency-Key', 'msg-2');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ success: false, code: 'idempotency_key_in_use' });
    open();
    const answered = await first;
    expect(answered.body.response).toBe('Slow reply.');
    const retry = await api('post', '/message', { message: 'Slow?' }).set('Idempotency-Key', 'msg-2').expect(200);
    expect(retry.body).toEqual(answered.body);
  });

  it('frees the key of a request that failed, so the retry runs', async () => {
    stub.enqueue({ status: 500, errorMessage: 'model down' });
    const failed = await api('post', '/message', { message: 'Fails?' }).set('Idempotency-Key', 'msg-3');
    expect(failed.status).toBe(502);
    stub.enqueue({ text: 'Now it works.' });
    const retry = await api('post', '/message', { message: 'Fails?' }).set('Idempotency-Key', 'msg-3').expect(200);
    expect(retry.body.response).toBe('Now it works.');
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('runs a key whose instance died mid-request (its lease expired) again', async () => {
    const started = await api('post', '/conversation', {}).set('Idempotency-Key', 'orphan').expect(200);
    // As a dead instance leaves it: still running, lease long past, no answer.
    await IdempotencyKeyModel.updateOne({ _id: `${tenant.channelId}:${await sha('orphan')}` }, { $set: { state: 'running', answer: null, leaseUntil: new Date(Date.now() - 1000) } });
    const retry = await api('post', '/conversation', {}).set('Idempotency-Key', 'orphan').expect(200);
    expect(retry.body.conversationId).not.toBe(started.body.conversationId);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a 2.0 stream as the same reply, with its conversation and saved turn', async () => {
    stub.enqueue({ text: ['Streamed ', 'reply.'] });
    const body = { message: 'Stream it', stream: true };
    const first = await readSse(await post('2.0', '/message', 'sse-1', body));
    const calls = stub.requests.length;
    const res = await post('2.0', '/message', 'sse-1', body);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    const retry = await readSse(res);
    expect(stub.requests.length).toBe(calls);
    expect(textOf(retry.chunks)).toBe('Streamed reply.');
    const data = (r: typeof first, type: string) => r.chunks.find((c) => c.type === type) as { data: unknown } | undefined;
    expect(data(retry, 'data-conversation')?.data).toEqual(data(first, 'data-conversation')?.data);
    expect(data(retry, 'data-turn')?.data).toEqual(data(first, 'data-turn')?.data);
    expect(retry.chunks.at(-1)?.type).toBe('finish');
  });

  it('replays a 1.0 stream as the same reply', async () => {
    stub.enqueue({ text: ['Old ', 'format.'] });
    const body = { message: 'Stream on 1.0', stream: true };
    const first = await readNdjson(await post('1.0', '/message', 'nd-1', body));
    const calls = stub.requests.length;
    const retry = await readNdjson(await post('1.0', '/message', 'nd-1', body));
    expect(stub.requests.length).toBe(calls);
    const text = (lines: Array<Record<string, any>>) => lines.map((l) => l.choices[0].delta.content ?? '').join('');
    expect(text(retry)).toBe(text(first));
    expect(text(retry)).toBe('Old format.');
    expect(retry.at(-1)!.choices[0].finish_reason).toBe('stop');
    expect(retry[0]!.id).toBe(first[0]!.id);
  });
});

async function sha(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}
