// A chat turn under an Idempotency-Key (http/idempotency.ts): the turn's reply is kept as the key's
// answer when the turn is saved, and a retry replays it in the form it asks for (whole, 2.0 SSE or
// 1.0 NDJSON: the fingerprint makes it the same form as the first).
import type { IdempotentRequest } from '../http/idempotency.ts';
import type { Answerer } from './answerers/types.ts';
import type { PreparedTurn, TurnSaved } from './turn.ts';

interface KeptTurn {
  turn: { conversationId: string; messageId: string; response: string; saved: Omit<TurnSaved, 'type'> };
}

/** Wraps the turn so its end keeps the answer; a turn that fails or stops early frees the key. */
export function rememberTurn(request: IdempotentRequest, turn: PreparedTurn): PreparedTurn {
  request.handOff();
  return {
    ...turn,
    async *run(signal) {
      let response = '';
      let kept = false;
      try {
        for await (const event of turn.run(signal)) {
          if (event.type === 'text-delta') response += event.delta;
          if (event.type === 'turn') {
            const { type: _type, ...saved } = event;
            await request.complete({ turn: { conversationId: turn.conversationId, messageId: turn.messageId, response, saved } } satisfies KeptTurn);
            kept = true;
          }
          yield event;
        }
      } finally {
        if (!kept) await request.release();
      }
    },
  };
}

/** The first turn's reply, told again: its text in one delta, then the saved turn. Nothing is stored. */
export function replayedTurn(replay: unknown, answerer: Answerer): PreparedTurn {
  const { turn } = replay as KeptTurn;
  return {
    conversationId: turn.conversationId,
    messageId: turn.messageId,
    answerer,
    async *run() {
      if (turn.response) yield { type: 'text-delta', delta: turn.response };
      yield { type: 'turn', ...turn.saved };
    },
  };
}
