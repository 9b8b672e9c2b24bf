// The one interface both answerers implement: given the context of a turn, produce the reply as a
// stream of parts (text deltas and power-up activity), ending with the tokens it used.
import type { z } from 'zod';
import type { KnowledgeHit } from '../../knowledge/service.ts';
import type { Message } from '../model.ts';
import type { ExtendContext, UserData } from '../schema.ts';

/** A power-up's result (spec "Streaming on 2.0": `output` holds `message` and optional `display`). */
export interface ToolOutput {
  message: string;
  display?: Record<string, unknown>;
}

export interface PowerUp<I extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  inputSchema: z.ZodType<I>;
  /** Without a model, a clear match on the user's words stands in for the model's tool call. */
  matchIntent(message: string): I | null;
  execute(input: I): Promise<ToolOutput>;
}

export type TurnPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; delta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-output-available'; toolCallId: string; toolName: string; output: ToolOutput }
  | { type: 'sources'; passages: KnowledgeHit[] }
  | { type: 'usage'; tokens: number };

export interface AnswerInput {
  message: string;
  /** The bot's instructions, already extended or overridden for this request. */
  instructions: string;
  userData: UserData;
  extendContext?: ExtendContext;
  history: Message[];
  passages: KnowledgeHit[];
  /** The names of the passages' rows (rowId → name), for replies that say where they quote from. */
  rowNames(passages: KnowledgeHit[]): Promise<Map<string, string>>;
  powerUps: PowerUp[];
  /** Set when this message gave the email a human agent asked for. */
  recordedEmail?: string | null;
  stream: boolean;
  signal: AbortSignal;
}

export interface Answerer {
  /** Reported in `data-error` and in 1.0 chunks' `model`. */
  provider: string;
  model: string;
  answer(input: AnswerInput): AsyncIterable<TurnPart>;
}

/** A model failure, with what `data-error` reports (spec "Streaming on 2.0"). */
export class AnswererError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    readonly model: string,
    readonly statusCode: number | null,
    readonly statusMessage: string,
  ) {
    super(message);
  }
}
