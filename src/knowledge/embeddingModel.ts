// The OpenAI-compatible POST /embeddings as an ai SDK embedding model (so `embedMany` stays the call)
// that asks for `encoding_format: "base64"`, as OpenAI's own clients do, and OpenAI, vLLM, TEI and
// recent Ollama serve: each vector arrives as its little-endian Float32 bytes and is decoded straight
// into one Float32Array per request. The SDK's openai-compatible provider always asks for "float"
// and parses and zod-validates every number, which cost more CPU than the sync itself
// (docs/BENCHMARKS.md, issue 18). A server that answers float arrays anyway is read as floats; one
// that refuses base64 with a 400 or 422 is asked again for floats, and for floats from then on.
import { APICallError, type EmbeddingModel } from 'ai';
import { request } from 'undici';

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
  // undici's request rather than fetch: fetch's web streams and Request objects cost about 1 ms of
  // CPU per call here, more than decoding the answer (docs/BENCHMARKS.md, issue 18).
  const post = async (values: string[], as: Format, headers: Record<string, string | undefined> | undefined, signal?: AbortSignal) => {
    try {
      const response = await request(url, {
        method: 'POST',
        headers: withoutUndefined({ ...headers, 'content-type': 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) }),
        body: JSON.stringify({ model: endpoint.modelId, input: values, encoding_format: as }),
        signal,
      });
      return { status: response.statusCode, body: response.body };
    } catch (err) {
      if (signal?.aborted) throw err;
      const cause = err instanceof Error ? err.message : String(err);
      throw new APICallError({ message: `Cannot connect to API: ${cause}`, url, requestBodyValues: { model: endpoint.modelId }, cause: err, isRetryable: true });
    }
  };
  return {
    specificationVersion: 'v3',
    provider: 'openai-compatible.embedding',
    modelId: endpoint.modelId,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal, headers }) {
      let sent = await post(values, format, headers, abortSignal);
      if (format === 'base64' && REFUSED_FORMAT.has(sent.status)) {
        await sent.body.dump();
        sent = await post(values, 'float', headers, abortSignal);
        if (sent.status < 300) format = 'float';
      }
      const text = await sent.body.text();
      if (sent.status >= 300) throw apiError(url, endpoint.modelId, sent.status, text);
      const body = parseJson(text) as { data?: unknown; usage?: { prompt_tokens?: unknown } } | null;
      const embeddings = decodeEmbeddings(body?.data, values.length);
      const tokens = body?.usage?.prompt_tokens;
      return { embeddings: embeddings as unknown as number[][], usage: typeof tokens === 'number' ? { tokens } : undefined, warnings: [] };
    },
  };
}

/** The `data` of an embeddings response as one Float32Array per input, in input order. */
export function decodeEmbeddings(data: unknown, count: number): Float32Array[] {
  if (!Array.isArray(data) || data.length !== count) throw new Error(`invalid response: expected ${count} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`);
  const items = data as Array<{ index?: unknown; embedding?: unknown }>;
  const first = items[0]?.embedding;
  const dims = typeof first === 'string' ? Buffer.byteLength(first, 'base64') / 4 : Array.isArray(first) ? first.length : 0;
  if (!Number.isInteger(dims) || dims === 0) throw new Error('invalid response: an embedding is neither float bytes in base64 nor an array of numbers');
  const out = new Float32Array(count * dims);
  const bytes = Buffer.from(out.buffer);
  const filled = new Uint8Array(count);
  items.forEach((item, position) => {
    // `index` orders the answer (OpenAI's spec); servers that leave it out answer in input order.
    const slot = Number.isInteger(item.index) && (item.index as number) >= 0 && (item.index as number) < count ? (item.index as number) : position;
    if (filled[slot]++) throw new Error(`invalid response: two embeddings for input ${slot}`);
    const e = item.embedding;
    if (typeof e === 'string' && Buffer.byteLength(e, 'base64') === dims * 4) bytes.write(e, slot * dims * 4, dims * 4, 'base64');
    else if (Array.isArray(e) && e.length === dims) out.set(e as number[], slot * dims);
    else throw new Error('invalid response: embeddings of different sizes');
  });
  return Array.from({ length: count }, (_, i) => out.subarray(i * dims, (i + 1) * dims));
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const withoutUndefined = (headers: Record<string, string | undefined>) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
