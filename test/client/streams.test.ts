// Streamed replies through the client against the real app: 2.0 UI-message chunks read with the ai
// SDK's parser, the deprecated 1.0 NDJSON lines, both compared with the non-streamed reply to the
// same question over knowledge that a real sync put in place.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor, useListeningApp } from '../helpers/harness.ts';
import { createTenant } from '../helpers/factories.ts';
import type { CompletionChunk, RelayClient, UiMessageChunk } from '../../src/client/index.ts';
import { clientFor } from './support.ts';

const QUESTION = 'How long does charging the widget take?';
const MANUAL = [
  '# Widget manual',
  '',
  '## Charging',
  '',
  'Charging the widget over USB-C takes about two hours from empty, and the light turns green when it is full.',
  'Charging from a laptop port can take up to four hours because those ports give less power.',
].join('\n');

const textOf = (chunks: UiMessageChunk[]) => chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
const contentOf = (lines: CompletionChunk[]) => lines.map((l) => l.choices[0]!.delta.content ?? '').join('');

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe('streamed replies through the client', () => {
  const rt = useTestRuntime();
  const app = useListeningApp(rt);
  let client: RelayClient;
  let legacy: RelayClient;
  let expected: { response: string; sources: unknown[] };
  beforeAll(async () => {
    const tenant = await createTenant();
    client = clientFor(app.baseUrl, tenant, '2.0').client;
    legacy = clientFor(app.baseUrl, tenant, '1.0').client;
    const { id } = await client.dataSources.create();
    await client.rows.add(id, [{ name: 'manual.md', content: MANUAL }]);
    await client.dataSources.sync(id);
    await waitFor(async () => (await client.dataSources.get(id)).state === 'synced', 30_000);
    expected = await client.chat.sendMessage({ message: QUESTION });
  });

  it('answers from the synced manual when not streamed, so the streams below carry real text', () => {
    expect(expected.response).toMatch(/two hours/);
    expect(expected.sources).toHaveLength(1);
  });

  it('streams 2.0 chunks whose deltas concatenate to the non-streamed reply, with the conversation id exposed', async () => {
    const stream = await client.chat.streamMessage({ message: QUESTION });
    expect(stream.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const chunks = await collect(stream);
    expect(chunks[0]!.type).toBe('start');
    expect(chunks[1]).toEqual({ type: 'data-conversation', data: { conversationId: stream.conversationId } });
    expect(chunks.at(-1)!.type).toBe('finish');
    expect(chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(1);
    expect(textOf(chunks)).toBe(expected.response);
    const turn = chunks.find((c) => c.type === 'data-turn');
    expect(turn?.type === 'data-turn' && turn.data.sources).toEqual(expected.sources);
    const history = await client.chat.listMessages(stream.conversationId!);
    expect(history.items.map((m) => m.id)).toEqual(turn?.type === 'data-turn' ? turn.data.rowIds : []);
    expect(history.items.at(-1)).toMatchObject({ role: 'assistant', message: expected.response });
  });

  it('continues a conversation in a stream, and streams on 2.0 even from a client set to 1.0', async () => {
    const { conversationId } = await legacy.chat.startConversation();
    const stream = await legacy.chat.streamMessage({ message: QUESTION, conversationId });
    expect(stream.conversationId).toBe(conversationId);
    expect(textOf(await collect(stream))).toBe(expected.response);
    expect((await legacy.chat.listMessages(conversationId)).items.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
  });

  it('stops reading when the caller leaves the loop early, without hanging', async () => {
    const stream = await client.chat.streamMessage({ message: QUESTION });
    for await (const chunk of stream) {
      expect(chunk.type).toBe('start');
      break;
    }
    expect((await client.chat.sendMessage({ message: QUESTION })).response).toBe(expected.response);
  });

  it('streams 1.0 chat.completion.chunk lines whose contents concatenate to the non-streamed reply', async () => {
    const lines = await collect(await client.chat.streamCompletion({ message: QUESTION }));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line).toMatchObject({ object: 'chat.completion.chunk', id: expect.stringMatching(/^chatcmpl-/), model: 'grounded' });
    expect(lines[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(contentOf(lines)).toBe(expected.response);
    expect(lines.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(lines.some((l) => l.error)).toBe(false);
  });
});
