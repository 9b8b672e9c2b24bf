// 1.0 streaming (spec "Streaming on 1.0", deprecated): one chat.completion.chunk per line, no
// conversation id, ended by closing the response. Tool activity is not part of this format.
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from '../../observability/logger.ts';
import { AnswererError } from '../answerers/types.ts';
import type { PreparedTurn } from '../turn.ts';
import { abortOnDisconnect } from './disconnect.ts';

interface Delta {
  role?: 'assistant';
  content?: string;
}

export function completionChunk(turn: PreparedTurn, created: number, delta: Delta, finishReason: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: `chatcmpl-${turn.messageId}`,
    object: 'chat.completion.chunk',
    created,
    model: turn.answerer.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
}

async function* lines(turn: PreparedTurn, signal: AbortSignal, created: number, logger: Logger): AsyncGenerator<string> {
  const line = (...args: Parameters<typeof completionChunk> extends [unknown, unknown, ...infer R] ? R : never) =>
    `${JSON.stringify(completionChunk(turn, created, ...args))}\n`;
  yield line({ role: 'assistant', content: '' }, null);
  try {
    for await (const event of turn.run(signal)) {
      if (event.type === 'text-delta') yield line({ content: event.delta }, null);
    }
    yield line({}, 'stop');
  } catch (err) {
    // The format has no error chunk; the last line says why it stopped (see docs/CHAT.md).
    const failure = err instanceof AnswererError ? err : undefined;
    // A client that hangs up aborts the turn: its doing, not a failure, and no stack (L1).
    if (signal.aborted) return logger.info('chat stream ended: the client disconnected');
    if (!failure) logger.error({ err }, 'chat stream failed');
    yield line({}, 'error', {
      error: {
        message: failure?.message ?? 'The reply failed',
        provider: failure?.provider ?? turn.answerer.provider,
        model: turn.answerer.model,
        statusCode: failure?.statusCode ?? null,
        statusMessage: failure?.statusMessage ?? 'Internal error',
      },
    });
  }
}

export function streamCompletionChunks(c: Context, turn: PreparedTurn, now: Date, logger: Logger): void {
  const abort = abortOnDisconnect(c.res);
  c.status = 200;
  c.type = 'application/x-ndjson';
  c.set('Cache-Control', 'no-cache');
  c.body = Readable.from(lines(turn, abort.signal, Math.floor(now.getTime() / 1000), logger));
}
