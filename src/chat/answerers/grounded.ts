// The default answerer (no model configured): a deterministic reply composed from the best-matching
// synced passages, an honest "I don't know" when nothing matches, and power-ups on a clear intent.
import { randomUUID } from 'node:crypto';
import type { KnowledgeHit } from '../../knowledge/service.ts';
import { countTokens } from '../tokens.ts';
import type { AnswerInput, Answerer, PowerUp, TurnPart } from './types.ts';

export const NO_ANSWER = "I don't know the answer to that: I could not find it in the information I have.";
const PASSAGE_LIMIT = 700;
const WORDS_PER_DELTA = 8;

/** Passages within half the best score, at most three, each cut at a sentence end. */
export function composeGroundedReply(hits: KnowledgeHit[]): { text: string; used: KnowledgeHit[] } {
  const best = hits[0];
  if (!best || best.score <= 0) return { text: NO_ANSWER, used: [] };
  const used: KnowledgeHit[] = [];
  for (const hit of hits) {
    if (used.length === 3 || hit.score < best.score / 2) break;
    if (!used.some((u) => u.text === hit.text)) used.push(hit);
  }
  const parts = used.map((h) => excerpt(h.text.trim()));
  return { text: parts.join('\n\n'), used };
}

function excerpt(text: string): string {
  if (text.length <= PASSAGE_LIMIT) return text;
  const cut = text.slice(0, PASSAGE_LIMIT);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'), cut.lastIndexOf('\n\n'));
  return end > PASSAGE_LIMIT / 2 ? cut.slice(0, end + 1) : `${cut.trimEnd()}…`;
}

/** Splits text into deltas of a few words; their concatenation is the text, exactly. */
export function textDeltas(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) deltas.push(words.slice(i, i + WORDS_PER_DELTA).join(''));
  return deltas;
}

async function* runPowerUp(powerUp: PowerUp, input: Record<string, unknown>): AsyncGenerator<TurnPart, string> {
  const toolCallId = `call_${randomUUID()}`;
  const json = JSON.stringify(input);
  yield { type: 'tool-input-start', toolCallId, toolName: powerUp.name };
  yield { type: 'tool-input-delta', toolCallId, delta: json };
  yield { type: 'tool-input-available', toolCallId, toolName: powerUp.name, input };
  const output = await powerUp.execute(input);
  yield { type: 'tool-output-available', toolCallId, toolName: powerUp.name, output };
  return output.message;
}

export const groundedAnswerer: Answerer = {
  provider: 'relay',
  model: 'grounded',
  async *answer(input: AnswerInput): AsyncGenerator<TurnPart> {
    let text: string;
    const matched = input.powerUps.map((p) => [p, p.matchIntent(input.message)] as const).find(([, m]) => m !== null);
    if (matched) {
      text = yield* runPowerUp(matched[0], matched[1]!);
    } else if (input.recordedEmail) {
      text = `Thank you. A human agent will contact you at ${input.recordedEmail}.`;
    } else {
      const reply = composeGroundedReply(input.passages);
      text = reply.text;
      yield { type: 'sources', passages: reply.used };
    }
    for (const delta of textDeltas(text)) {
      if (input.signal.aborted) break;
      yield { type: 'text-delta', delta };
    }
    yield { type: 'usage', tokens: countTokens(input.message, text) };
  },
};
