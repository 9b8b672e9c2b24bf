// The default answerer (no model configured): a deterministic reply composed from the best-matching
// synced passages, an honest "I don't know" when nothing matches, and power-ups on a clear intent.
import { randomUUID } from 'node:crypto';
import type { KnowledgeHit } from '../../knowledge/service.ts';
import { terms } from '../../knowledge/terms.ts';
import { countTokens } from '../tokens.ts';
import { readablePassage } from './passage.ts';
import { ANSWERABILITY, answerability, type AnswerabilityModel } from './answerability.ts';
import type { AnswerInput, Answerer, PowerUp, TurnPart } from './types.ts';

export const NO_ANSWER = "I don't know the answer to that: I could not find it in the information I have.";
const WORDS_PER_DELTA = 8;
const MAX_PASSAGES = 3;
/** A further passage must score at least this share of the best one. */
const RELATIVE_SCORE = 0.5;
/**
 * The least share of words a further passage must add to those before it: none. The passages are
 * already one per section, and a rule of new words skipped the right second or third passage more
 * often than it kept a repeat out (bench/retrieval.ts `--citing`, over fourteen corpora; docs/CHAT.md).
 */
const NEW_WORDS = 0;

/**
 * A passage is quoted only when it holds at least this share of the question's terms, weighted by
 * idf (knowledge/search.ts): below it the words that matched are the question's commonest, and the
 * honest reply is "I don't know". A share, not a score, so it means the same on every corpus. Higher
 * shares refuse paraphrased questions as often as unanswerable ones; between 0.15 and 0.2 only
 * answerable questions were refused, the unanswerable ones being refused by the rules below
 * (bench/retrieval.ts over eight corpora; docs/CHAT.md).
 */
export const MIN_COVERAGE = 0.15;
/**
 * Nothing is quoted when more than half of the question's weight (idf-weighted terms) is words no
 * chunk of the bot's knowledge holds: the question is mostly about something the documents never
 * name, however well a passage matches the rest ("deploy … to Kubernetes with Helm").
 */
export const MAX_UNKNOWN = 0.5;

/**
 * A best passage that lacks a name the question writes ("… to Kubernetes with Helm", "… as XML")
 * is quoted only when it holds at least this share of the question's terms: a question about a
 * name the passage never mentions is rarely answered by it, while a paraphrased question, written
 * in everyday words, has no name to miss (knowledge/terms.ts nameTerms; docs/CHAT.md).
 */
export const NAME_COVERAGE = 0.5;

/** What a best passage needs before it is quoted (bench/retrieval.ts sets it otherwise to measure). */
export interface Confidence {
  /**
   * The model that judges whether the documents answer the question (answerability.ts), for hits
   * that carry the ranking's signals, after `unknownNames`; null, or a hit without them (a passage
   * only the embeddings found first), falls back on the rules below.
   */
  answerability: AnswerabilityModel | null;
  /**
   * Nothing is quoted when the question writes a name that no chunk of the bot's knowledge holds
   * ("… to Kubernetes", "… over IPFS"): the documents never mention what it asks about, however well
   * a passage matches the rest of it (knowledge/search.ts unknownName; docs/CHAT.md).
   */
  unknownNames: boolean;
  minCoverage: number;
  maxUnknown: number;
  nameCoverage: number;
  /** A further passage's least score, as a share of the best one's. */
  relativeScore: number;
  /** A further passage's least share of words the passages before it did not have. */
  newWords: number;
}
export const CONFIDENCE: Confidence = { answerability: ANSWERABILITY, unknownNames: true, minCoverage: MIN_COVERAGE, maxUnknown: MAX_UNKNOWN, nameCoverage: NAME_COVERAGE, relativeScore: RELATIVE_SCORE, newWords: NEW_WORDS };

/** Judged on the passage the question's own words rank first (`evidence`), when the ranking mixed in more. */
const strong = (hit: KnowledgeHit, c: Confidence) => {
  if (c.answerability && hit.signals) return hit.score > 0 && !(c.unknownNames && hit.unknownName) && answerability(hit.signals, c.answerability) >= c.answerability.threshold;
  const coverage = hit.evidence?.coverage ?? hit.coverage;
  const missingName = hit.evidence?.missingName ?? hit.missingName;
  return (
    hit.score > 0 &&
    !(c.unknownNames && hit.unknownName) &&
    (coverage === undefined || coverage >= c.minCoverage) &&
    (hit.unknown === undefined || hit.unknown <= c.maxUnknown) &&
    !(missingName && (coverage ?? 0) < c.nameCoverage)
  );
};

/**
 * The best passage, when it is strong, then up to two more when they score close to it: those are
 * judged against the best, since the right one is often the second or the third.
 */
export function selectPassages(hits: KnowledgeHit[], confidence = CONFIDENCE): KnowledgeHit[] {
  const best = hits[0];
  if (!best || !strong(best, confidence)) return [];
  const used = [best];
  const seen = new Set(confidence.newWords ? terms(best.text) : []);
  for (const hit of hits.slice(1)) {
    if (used.length === MAX_PASSAGES || hit.score < best.score * confidence.relativeScore) break;
    if (confidence.newWords) {
      const words = new Set(terms(hit.text));
      const fresh = [...words].filter((w) => !seen.has(w)).length;
      if (!words.size || fresh / words.size < confidence.newWords) continue;
      for (const w of words) seen.add(w);
    }
    used.push(hit);
  }
  return used;
}

/** The reply without a model: the selected passages made readable, each naming its row. */
function groundedText(used: KnowledgeHit[], rowNames: ReadonlyMap<string, string>): string {
  if (!used.length) return NO_ANSWER;
  return used.map((h) => readablePassage(h, rowNames.get(h.rowId) ?? null)).join('\n\n');
}

/** Selection and text in one call (bench/retrieval.ts). */
export function composeGroundedReply(hits: KnowledgeHit[], rowNames: ReadonlyMap<string, string> = new Map(), confidence = CONFIDENCE): { text: string; used: KnowledgeHit[] } {
  const used = selectPassages(hits, confidence);
  return { text: groundedText(used, rowNames), used };
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
      const used = selectPassages(input.passages);
      text = groundedText(used, await input.rowNames(used));
      yield { type: 'sources', passages: used };
    }
    for (const delta of textDeltas(text)) {
      if (input.signal.aborted) break;
      yield { type: 'text-delta', delta };
    }
    yield { type: 'usage', tokens: countTokens(input.message, text) };
  },
};
