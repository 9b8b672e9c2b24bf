// The OpenAI-compatible POST /embeddings as an ai SDK embedding model (so `embedMany` stays the call)
// that asks for `encoding_format: "base64"`, as OpenAI's own clients do, and OpenAI, vLLM, TEI and
// recent Ollama serve: each vector arrives as its little-endian Float32 bytes and is decoded straight
// into one Float32Array per request. The SDK's openai-compatible provider always asks for "float"
// and parses and zod-validates every number, which cost more CPU than the sync itself
// (docs/BENCHMARKS.md, issue 18). A server that answers float arrays anyway is read as floats; one
// that refuses base64 with a 400 or 422 is asked again for floats, and for floats from then on.
// Requests of several texts (a sync's batches) are made on the embedding thread (embeddingThread.ts).
// With `providerOptions: { relay: { stored: true } }` (a sync's batches, which are only stored) the
// answer is quantised there too: the embeddings are each text's 12-bit integers and
// `providerMetadata.relay.stored` the batch's codes and scales (vectorCodec.ts StoredVectors).
import { APICallError, type EmbeddingModel } from 'ai';
import { parseJson, requestEmbeddings, vectorsOf, type EmbeddingAnswer, type EmbeddingRequest } from './embeddingAnswer.ts';
import { onEmbeddingThread } from './embeddingThreadClient.ts';

type EmbeddingModelV3 = Extract<EmbeddingModel, { specificationVersion: 'v3' }>;

export interface EmbeddingEndpoint {
  /** OPENAI_BASE_URL, e.g. http://localhost:11434/v1 */
  baseURL: string;
  apiKey?: string;
  modelId: string;
}

type Format = 'base64' | 'float';
const REFUSED_FORMAT = new Set([400, 422]);

/**
 * The model's embeddings are Float32Array views into one array per request, not `number[]` as the
 * SDK's type says: `embedMany` hands them through untouched (ai 6.0), and Relay reads them only as
 * `ArrayLike<number>` (embeddings.ts).
 */
export function createEmbeddingModel(endpoint: EmbeddingEndpoint): EmbeddingModelV3 {
  const url = `${endpoint.baseURL.replace(/\/+$/, '')}/embeddings`;
  let format: Format = 'base64';
  const post = (values: string[], as: Format, headers: Record<string, string | undefined> | undefined, stored: boolean, signal?: AbortSignal): Promise<EmbeddingAnswer> => {
    const req: EmbeddingRequest = {
      url,
      headers: withoutUndefined({ ...headers, 'content-type': 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) }),
      model: endpoint.modelId,
      input: values,
      encoding_format: as,
      ...(stored ? { stored } : {}),
    };
    // One text (a chat's question) stays here: the hop to the thread would cost more than it saves.
    return values.length > 1 ? onEmbeddingThread(req, signal) : requestEmbeddings(req, signal);
  };
  return {
    specificationVersion: 'v3',
    provider: 'openai-compatible.embedding',
    modelId: endpoint.modelId,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal, headers, providerOptions }) {
      const stored = providerOptions?.relay?.stored === true;
      let answer = await post(values, format, headers, stored, abortSignal);
      if (format === 'base64' && answer.kind === 'status' && REFUSED_FORMAT.has(answer.status)) {
        answer = await post(values, 'float', headers, stored, abortSignal);
        if (answer.kind === 'vectors' || answer.kind === 'stored') format = 'float';
      }
      if (answer.kind === 'unreachable') {
        throw new APICallError({ message: `Cannot connect to API: ${answer.message}`, url, requestBodyValues: { model: endpoint.modelId }, isRetryable: true });
      }
      if (answer.kind === 'status') throw apiError(url, endpoint.modelId, answer.status, answer.text);
      if (answer.kind === 'invalid') throw new Error(answer.message);
      const usage = answer.tokens === undefined ? undefined : { tokens: answer.tokens };
      if (answer.kind === 'stored') {
        // The integers per text as the embeddings; the whole batch, with its scales, as the provider's metadata.
        const embeddings = vectorsOf(answer.vectors.codes, answer.count);
        return { embeddings: embeddings as unknown as number[][], usage, providerMetadata: { relay: { stored: answer.vectors as never } }, warnings: [] };
      }
      const embeddings = vectorsOf(answer.floats, answer.count);
      return { embeddings: embeddings as unknown as number[][], usage, warnings: [] };
    },
  };
}

function apiError(url: string, modelId: string, status: number, text: string): APICallError {
  const body = parseJson(text) as { error?: { message?: unknown } } | null;
  const message = typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${status}`;
  return new APICallError({
    message,
    url,
    requestBodyValues: { model: modelId },
    statusCode: status,
    responseBody: text.slice(0, 2_000),
    isRetryable: status === 408 || status === 409 || status === 429 || status >= 500,
  });
}

const withoutUndefined = (headers: Record<string, string | undefined>) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
