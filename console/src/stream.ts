// Reads the 2.0 chat stream (spec "Streaming on 2.0"): server-sent events, one `data: <json>` per
// event, ending with `data: [DONE]`. Parsed by hand: the format is small and fixed.
import { adminHeaders, ApiError, publicPath, signOutOn401, type ChannelAccess } from './api.ts';

export interface StreamChunk {
  type: string;
  [key: string]: any;
}

/** Splits SSE text into the data payloads of complete events; returns the unfinished rest. */
export function parseEvents(buffer: string): { events: string[]; rest: string } {
  const events: string[] = [];
  const parts = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    const data = part
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) events.push(data);
  }
  return { events, rest };
}

/** Sends a message with stream: true and calls `onChunk` for every chunk until [DONE]. */
export async function streamMessage(
  access: ChannelAccess,
  body: { message: string; conversationId?: string },
  onChunk: (chunk: StreamChunk) => void,
  signal?: AbortSignal,
): Promise<{ conversationId: string | null }> {
  const res = await fetch(publicPath(access, '2.0', '/message'), {
    method: 'POST',
    headers: { ...adminHeaders(), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, stream: true }),
    cache: 'no-store',
    signal,
  });
  const conversationId = res.headers.get('x-conversation-id');
  if (!res.ok || !res.headers.get('content-type')?.includes('text/event-stream')) {
    // Limits and bad input answer with a normal JSON error, not a stream.
    const json = await res.json().catch(() => ({}));
    signOutOn401(new ApiError(res.status, json.code ?? String(res.status), json.message ?? json.statusMessage ?? res.statusText));
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parsed = parseEvents(buffer + value);
    buffer = parsed.rest;
    for (const data of parsed.events) {
      if (data === '[DONE]') return { conversationId };
      try {
        onChunk(JSON.parse(data));
      } catch {
        onChunk({ type: 'error', errorText: `unreadable chunk: ${data.slice(0, 100)}` });
      }
    }
  }
  return { conversationId };
}
