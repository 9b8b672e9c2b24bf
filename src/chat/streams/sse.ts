// 2.0 streaming (spec "Streaming on 2.0"): the ai SDK's UI-message stream protocol, written with its
// own helpers. Order: start, data-conversation, text and tool chunks, data-turn (after the turn's
// messages are saved), finish, then the SDK's `data: [DONE]`; on failure error + data-error, no finish.
import type { Context } from 'koa';
import type { Logger } from '../../observability/logger.ts';
import { createUIMessageStream, pipeUIMessageStreamToResponse, type UIMessageStreamWriter } from 'ai';
import { AnswererError } from '../answerers/types.ts';
import type { PreparedTurn, TurnEvent } from '../turn.ts';
import { abortOnDisconnect } from './disconnect.ts';

/** Opens and closes text blocks around runs of text deltas; tool chunks sit between blocks. */
function textBlocks(writer: UIMessageStreamWriter, messageId: string) {
  let open: string | null = null;
  let n = 0;
  return {
    delta(delta: string) {
      if (!open) writer.write({ type: 'text-start', id: (open = `${messageId}-text-${n++}`) });
      writer.write({ type: 'text-delta', id: open, delta });
    },
    close() {
      if (open) writer.write({ type: 'text-end', id: open });
      open = null;
    },
  };
}

function writeEvent(writer: UIMessageStreamWriter, text: ReturnType<typeof textBlocks>, event: TurnEvent): void {
  if (event.type === 'text-delta') return text.delta(event.delta);
  text.close();
  switch (event.type) {
    case 'tool-input-start':
      return writer.write({ type: 'tool-input-start', toolCallId: event.toolCallId, toolName: event.toolName });
    case 'tool-input-delta':
      return writer.write({ type: 'tool-input-delta', toolCallId: event.toolCallId, inputTextDelta: event.delta });
    case 'tool-input-available':
      return writer.write({ type: 'tool-input-available', toolCallId: event.toolCallId, toolName: event.toolName, input: event.input });
    case 'tool-output-available':
      return writer.write({ type: 'tool-output-available', toolCallId: event.toolCallId, output: event.output });
    case 'turn': {
      const { type: _type, ...data } = event;
      return writer.write({ type: 'data-turn', data });
    }
  }
}

export async function streamUiMessages(c: Context, turn: PreparedTurn, logger: Logger): Promise<void> {
  const abort = abortOnDisconnect(c.res);
  const conversationId = turn.conversationId;
  const stream = createUIMessageStream({
    async execute({ writer }) {
      writer.write({ type: 'start', messageId: turn.messageId });
      writer.write({ type: 'data-conversation', data: { conversationId } });
      const text = textBlocks(writer, turn.messageId);
      try {
        writer.write({ type: 'start-step' });
        for await (const event of turn.run(abort.signal)) {
          if (event.type === 'turn') {
            text.close();
            writer.write({ type: 'finish-step' });
          }
          writeEvent(writer, text, event);
        }
        if (!abort.signal.aborted) writer.write({ type: 'finish' });
      } catch (err) {
        const failure = err instanceof AnswererError ? err : new AnswererError('The reply failed', turn.answerer.provider, turn.answerer.model, null, 'Internal error');
        // A client that hangs up aborts the turn: its doing, not a failure, and no stack (L1).
        if (abort.signal.aborted) return logger.info({ conversationId }, 'chat stream ended: the client disconnected');
        if (!(err instanceof AnswererError)) logger.error({ err, conversationId }, 'chat stream failed');
        text.close();
        writer.write({ type: 'error', errorText: failure.message });
        writer.write({
          type: 'data-error',
          data: { provider: failure.provider, model: failure.model, statusCode: failure.statusCode, statusMessage: failure.statusMessage },
        });
      }
    },
  });
  // Koa must not write a body of its own: the SDK owns the response from here.
  c.status = 200;
  c.respond = false;
  await pipeUIMessageStreamToResponse({ response: c.res, stream, headers: { 'x-conversation-id': conversationId } });
}
