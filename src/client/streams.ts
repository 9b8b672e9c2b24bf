// Readers of the two streamed reply formats: 2.0 Server-Sent Events of typed UI-message chunks
// (spec "Streaming on 2.0") and the deprecated 1.0 newline-delimited chat.completion.chunk lines.
import type { UIMessageChunk } from 'ai';
import { RelayApiError } from './http.ts';
import type { ReplySource } from './types.ts';

/** The `data-*` chunks the service sends, by name (spec "Streaming on 2.0" chunk table). */
export type RelayStreamData = {
  conversation: { conversationId: string };
  turn: { rowIds: string[]; lastRowId: string | null; sources: ReplySource[]; handledBy?: 'agent' };
  error: { provider: string; model: string; statusCode: number | null; statusMessage: string };
};

export type UiMessageChunk = UIMessageChunk<unknown, RelayStreamData>;

/** A 2.0 reply being streamed. It can be iterated once: the chunks are read from the open response. */
export interface UiMessageStream extends AsyncIterable<UiMessageChunk> {
  /** From the `x-conversation-id` header, or from the `data-conversation` chunk if a proxy dropped it. */
  readonly conversationId: string | null;
}

/** A 1.0 stream line. `error` is on the last line when the reply failed (docs/CHAT.md). */
export interface CompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: 'assistant'; content?: string }; finish_reason: string | null }>;
  error?: { message: string; provider: string; model: string; statusCode: number | null; statusMessage: string };
}

const invalidStream = (status: number, message: string) => new RelayApiError(status, 'invalid_stream', message);

async function* readAll<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Leaving the loop early cancels the response, which the server sees as a disconnect.
    await reader.cancel().catch(() => undefined);
  }
}

/** Frames and `[DONE]` are parsed and each chunk validated by the ai SDK, the same code the server writes with. */
export function readUiMessageStream(res: Response): UiMessageStream {
  let conversationId = res.headers.get('x-conversation-id');
  async function* chunks(): AsyncGenerator<UiMessageChunk> {
    // Loaded on first use so the CLI and the gateway do not pay for the SDK unless they stream.
    const { parseJsonEventStream, uiMessageChunkSchema } = await import('ai');
    for await (const parsed of readAll(parseJsonEventStream({ stream: res.body!, schema: uiMessageChunkSchema }))) {
      if (!parsed.success) throw invalidStream(res.status, `a chunk does not match the UI message stream protocol: ${parsed.error.message}`);
      const chunk = parsed.value as UiMessageChunk;
      if (chunk.type === 'data-conversation') conversationId ??= chunk.data.conversationId;
      yield chunk;
    }
  }
  return {
    get conversationId() {
      return conversationId;
    },
    [Symbol.asyncIterator]: () => chunks(),
  };
}

/** One JSON object per line; the stream ends when the response closes. */
export async function* readCompletionChunks(res: Response): AsyncGenerator<CompletionChunk> {
  const parse = (line: string): CompletionChunk => {
    try {
      return JSON.parse(line) as CompletionChunk;
    } catch {
      throw invalidStream(res.status, `a line is not JSON: ${line.slice(0, 200)}`);
    }
  };
  let buffered = '';
  for await (const text of readAll(res.body!.pipeThrough(new TextDecoderStream()))) {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) yield parse(line);
  }
  if (buffered.trim()) yield parse(buffered);
}
