// Test support for chat: a 2.0 stream reader built on the ai SDK's own parser and schema, and a 1.0
// NDJSON reader (the app on a loopback port is harness.ts's useListeningApp).
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import type { Tenant } from '../helpers/factories.ts';

export function postMessage(baseUrl: string, tenant: Tenant, version: '1.0' | '2.0', body: unknown, signal?: AbortSignal) {
  return fetch(`${baseUrl}/api/public/channels/${tenant.channelId}/${version}/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-secret-key': tenant.secretKey },
    body: JSON.stringify(body),
    signal,
  });
}

export interface SseResult {
  raw: string;
  /** Every chunk, validated by the SDK's uiMessageChunkSchema (a chunk it rejects fails the read). */
  chunks: UIMessageChunk[];
  /** The message the SDK's readUIMessageStream assembles from those chunks. */
  message: UIMessage | undefined;
}

export async function readSse(res: Response): Promise<SseResult> {
  const raw = await res.text();
  const bytes = () => new Response(raw).body!;
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: bytes(), schema: uiMessageChunkSchema });
  for await (const result of parsed as unknown as AsyncIterable<{ success: boolean; value?: UIMessageChunk; error?: unknown }>) {
    if (!result.success) throw new Error(`chunk rejected by the SDK schema: ${String(result.error)}`);
    chunks.push(result.value!);
  }
  let message: UIMessage | undefined;
  const chunkStream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  for await (const m of readUIMessageStream({ stream: chunkStream, terminateOnError: false, onError: () => undefined })) message = m;
  return { raw, chunks, message };
}

export async function readNdjson(res: Response): Promise<Array<Record<string, any>>> {
  const raw = await res.text();
  return raw
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Chunk types in order, with consecutive text-deltas folded into one entry. */
export function chunkOrder(chunks: UIMessageChunk[]): string[] {
  const out: string[] = [];
  for (const c of chunks) if (!(c.type === 'text-delta' && out[out.length - 1] === 'text-delta')) out.push(c.type);
  return out;
}

export function textOf(chunks: UIMessageChunk[]): string {
  return chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
}
