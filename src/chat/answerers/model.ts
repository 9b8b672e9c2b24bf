// The model answerer (OPENAI_BASE_URL/OPENAI_MODEL set): any OpenAI-compatible server through the
// ai SDK. Streamed requests use streamText, whole replies generateText; power-ups become tools.
import http from 'node:http';
import { APICallError, generateText, stepCountIs, streamText, tool, type ToolSet } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Config } from '../../config.ts';
import { buildSystemPrompt, historyMessages } from './prompt.ts';
import { AnswererError, type AnswerInput, type Answerer, type PowerUp, type TurnPart } from './types.ts';

const PROVIDER = 'openai-compatible';
/** One tool round and the reply that follows it, with room for one more. */
const MAX_STEPS = 3;

function toolsOf(powerUps: PowerUp[]): ToolSet {
  return Object.fromEntries(
    powerUps.map((p) => [p.name, tool({ description: p.description, inputSchema: p.inputSchema, execute: (input) => p.execute(input as Record<string, unknown>) })]),
  );
}

function failure(err: unknown, model: string): AnswererError {
  if (APICallError.isInstance(err)) {
    const status = err.statusCode ?? null;
    const statusMessage = err.message || (status ? (http.STATUS_CODES[status] ?? 'Error') : 'Model request failed');
    return new AnswererError(`The model request failed: ${statusMessage}`, PROVIDER, model, status, statusMessage);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new AnswererError(`The model request failed: ${message}`, PROVIDER, model, null, message);
}

export function createModelAnswerer(config: Pick<Config, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'OPENAI_MODEL'>): Answerer {
  const modelName = config.OPENAI_MODEL!;
  const provider = createOpenAICompatible({ name: PROVIDER, baseURL: config.OPENAI_BASE_URL!, apiKey: config.OPENAI_API_KEY, includeUsage: true });
  const model = provider.chatModel(modelName);

  async function* streamed(input: AnswerInput, call: Parameters<typeof streamText>[0]): AsyncGenerator<TurnPart> {
    const result = streamText({ ...call, onError: () => undefined });
    try {
      yield* mapStream(input, result.fullStream);
    } catch (err) {
      if (input.signal.aborted) return; // the client left; what was produced is saved by the turn
      throw failure(err, modelName);
    }
  }

  async function* mapStream(input: AnswerInput, fullStream: ReturnType<typeof streamText>['fullStream']): AsyncGenerator<TurnPart> {
    for await (const part of fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) yield { type: 'text-delta', delta: part.text };
          break;
        case 'tool-input-start':
          yield { type: 'tool-input-start', toolCallId: part.id, toolName: part.toolName };
          break;
        case 'tool-input-delta':
          yield { type: 'tool-input-delta', toolCallId: part.id, delta: part.delta };
          break;
        case 'tool-call':
          yield { type: 'tool-input-available', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        case 'tool-result':
          yield { type: 'tool-output-available', toolCallId: part.toolCallId, toolName: part.toolName, output: part.output as never };
          break;
        case 'tool-error':
          yield { type: 'tool-output-available', toolCallId: part.toolCallId, toolName: part.toolName, output: { message: 'The power-up failed.' } };
          break;
        case 'finish':
          yield { type: 'usage', tokens: part.totalUsage.totalTokens ?? 0 };
          break;
        case 'error':
          if (input.signal.aborted) return;
          throw part.error;
        default:
          break;
      }
    }
  }

  async function* whole(call: Parameters<typeof generateText>[0]): AsyncGenerator<TurnPart> {
    let result;
    try {
      result = await generateText(call);
    } catch (err) {
      throw failure(err, modelName);
    }
    for (const step of result.steps) {
      for (const part of step.content) {
        if (part.type === 'text' && part.text) yield { type: 'text-delta', delta: part.text };
        else if (part.type === 'tool-call') {
          yield { type: 'tool-input-start', toolCallId: part.toolCallId, toolName: part.toolName };
          yield { type: 'tool-input-delta', toolCallId: part.toolCallId, delta: JSON.stringify(part.input) };
          yield { type: 'tool-input-available', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
        } else if (part.type === 'tool-result') {
          yield { type: 'tool-output-available', toolCallId: part.toolCallId, toolName: part.toolName, output: part.output as never };
        }
      }
    }
    yield { type: 'usage', tokens: result.totalUsage.totalTokens ?? 0 };
  }

  return {
    provider: PROVIDER,
    model: modelName,
    async *answer(input) {
      yield { type: 'sources', passages: input.passages };
      const call = {
        model,
        system: buildSystemPrompt(input),
        messages: [...historyMessages(input.history), { role: 'user' as const, content: input.message }],
        tools: input.powerUps.length ? toolsOf(input.powerUps) : undefined,
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal: input.signal,
        // A user is waiting: fail fast and report the failure rather than retry behind their back.
        maxRetries: 0,
      };
      if (input.stream) yield* streamed(input, call);
      else yield* whole(call);
    },
  };
}
