// One POST /embeddings and the reading of its answer into one Float32Array, shared by the main
// thread (a question's one text) and the embedding thread (a sync's batches, embeddingThread.ts).
// It does not import the ai SDK, so the thread starts light.
import { request } from 'undici';

export type EmbeddingAnswer =
  /** The vectors end to end, `floats.length / count` components each, in input order. */
  | { kind: 'vectors'; floats: Float32Array; count: number; tokens?: number }
  /** The server answered an error status (its body, for the error's message). */
  | { kind: 'status'; status: number; text: string }
  /** A 2xx answer that is not a valid set of embeddings. */
  | { kind: 'invalid'; message: string }
  /** No answer: the connection failed. */
  | { kind: 'unreachable'; message: string };

export interface EmbeddingRequest {
  url: string;
  headers: Record<string, string>;
  /** The JSON body, whose `input` holds `count` texts. */
  body: string;
  count: number;
}

/**
 * undici's request rather than fetch: fetch's web streams and Request objects cost about 1 ms of
 * CPU per call here, more than decoding the answer (docs/BENCHMARKS.md, issue 18). Abort errors
 * are thrown; every other outcome is an answer.
 */
export async function requestEmbeddings(req: EmbeddingRequest, signal?: AbortSignal): Promise<EmbeddingAnswer> {
  let response;
  try {
    response = await request(req.url, { method: 'POST', headers: req.headers, body: req.body, signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    return { kind: 'unreachable', message: err instanceof Error ? err.message : String(err) };
  }
  const text = await response.body.text();
  if (response.statusCode >= 300) return { kind: 'status', status: response.statusCode, text };
  const body = parseJson(text) as { data?: unknown; usage?: { prompt_tokens?: unknown } } | null;
  try {
    const floats = new Float32Array(decodeEmbeddings(body?.data, req.count)[0]!.buffer);
    const tokens = body?.usage?.prompt_tokens;
    return { kind: 'vectors', floats, count: req.count, ...(typeof tokens === 'number' ? { tokens } : {}) };
  } catch (err) {
    return { kind: 'invalid', message: (err as Error).message };
  }
}

/** The `data` of an embeddings response as one Float32Array per input, in input order, views into one array. */
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
  return vectorsOf(out, count);
}

/** The vectors of an answer, each a view into its one array. */
export const vectorsOf = (floats: Float32Array, count: number): Float32Array[] => {
  const dims = floats.length / count;
  return Array.from({ length: count }, (_, i) => floats.subarray(i * dims, (i + 1) * dims));
};

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
