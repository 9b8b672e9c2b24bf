// One POST /embeddings and the reading of its answer into one Float32Array, shared by the main
// thread (a question's one text) and the embedding thread (a sync's batches, embeddingThread.ts).
// It does not import the ai SDK, so the thread starts light.
import { request } from 'undici';
import { quantiseUnit, type StoredVectors } from './vectorCodec.ts';

export type EmbeddingAnswer =
  /** The vectors end to end, `floats.length / count` components each, in input order. */
  | { kind: 'vectors'; floats: Float32Array; count: number; tokens?: number }
  /** The same, asked `stored`: scaled to unit length and quantised as packs store them (vectorCodec.ts). */
  | { kind: 'stored'; vectors: StoredVectors; count: number; tokens?: number }
  /** The server answered an error status (its body, for the error's message). */
  | { kind: 'status'; status: number; text: string }
  /** A 2xx answer that is not a valid set of embeddings. */
  | { kind: 'invalid'; message: string }
  /** No answer: the connection failed. */
  | { kind: 'unreachable'; message: string };

export interface EmbeddingRequest {
  url: string;
  headers: Record<string, string>;
  /**
   * The JSON body's fields. The body is built where the request is made: on the embedding thread
   * for a sync's batches, since posting the texts there costs the sync's main thread about a sixth
   * of what building the JSON and posting it did (6,000 chunks: ~1.5 against ~8 ms).
   */
  model: string;
  input: string[];
  encoding_format: 'base64' | 'float';
  /**
   * Answer the vectors as packs store them: a sync's batches are only stored, so the thread that
   * reads them quantises them too, and the main thread, which chunks and writes, does no vector work.
   */
  stored?: boolean;
}

/**
 * undici's request rather than fetch: fetch's web streams and Request objects cost about 1 ms of
 * CPU per call here, more than decoding the answer (docs/BENCHMARKS.md, issue 18). Abort errors
 * are thrown; every other outcome is an answer.
 */
export async function requestEmbeddings(req: EmbeddingRequest, signal?: AbortSignal): Promise<EmbeddingAnswer> {
  const { model, input, encoding_format } = req;
  const count = input.length;
  let response;
  try {
    response = await request(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify({ model, input, encoding_format }), signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    return { kind: 'unreachable', message: err instanceof Error ? err.message : String(err) };
  }
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (response.statusCode >= 300) return { kind: 'status', status: response.statusCode, text: bytes.toString('utf8') };
  const fast = base64Embeddings(bytes, count);
  if (fast) return answerOf(req, fast.floats, fast.tokens);
  const body = parseJson(bytes.toString('utf8')) as { data?: unknown; usage?: { prompt_tokens?: unknown } } | null;
  let floats: Float32Array;
  try {
    floats = new Float32Array(decodeEmbeddings(body?.data, count)[0]!.buffer);
  } catch (err) {
    return { kind: 'invalid', message: (err as Error).message };
  }
  const tokens = body?.usage?.prompt_tokens;
  return answerOf(req, floats, typeof tokens === 'number' ? tokens : undefined);
}

function answerOf(req: EmbeddingRequest, floats: Float32Array, tokens: number | undefined): EmbeddingAnswer {
  const usage = tokens === undefined ? {} : { tokens };
  const count = req.input.length;
  if (!req.stored) return { kind: 'vectors', floats, count, ...usage };
  const vectors = quantiseUnit(floats, floats.length / count);
  return vectors ? { kind: 'stored', vectors, count, ...usage } : { kind: 'invalid', message: NOT_FINITE };
}

export const NOT_FINITE = 'a vector holds a value that is not a finite number';

const EMBEDDING_KEY = Buffer.from('"embedding"');
const INDEX_KEY = Buffer.from('"index"');
const TOKENS_KEY = Buffer.from('"prompt_tokens"');
const [QUOTE, BACKSLASH, OPEN, CLOSE, COLON] = [0x22, 0x5c, 0x7b, 0x7d, 0x3a];
const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * The vectors of a base64 answer read from its bytes, without turning the ~2 MB body into a string
 * and parsing it (about a third of the embedding thread's CPU per batch; docs/BENCHMARKS.md, issue
 * 18). It takes only the plain shape: exactly `count` `"embedding": "<base64>"` strings of one size
 * and no escapes, each in an object with its `"index"`, every index once. Anything else (float arrays,
 * a missing index, an error body) gives null, and the answer is parsed as JSON.
 */
export function base64Embeddings(bytes: Buffer, count: number): { floats: Float32Array; tokens?: number } | null {
  let out: Buffer | null = null;
  let dims = 0;
  let found = 0;
  const filled = new Uint8Array(count);
  for (let at = bytes.indexOf(EMBEDDING_KEY); at >= 0; at = bytes.indexOf(EMBEDDING_KEY, at)) {
    let i = at + EMBEDDING_KEY.length;
    while (isSpace(bytes[i])) i++;
    // `"embedding"` as a value ("object": "embedding") is followed by a comma, not a colon.
    if (bytes[i] !== COLON) {
      at = i;
      continue;
    }
    do i++;
    while (isSpace(bytes[i]));
    if (bytes[i] !== QUOTE || ++found > count) return null;
    const start = i + 1;
    const end = bytes.indexOf(QUOTE, start);
    if (end < 0) return null;
    // Within this string only: a search to the body's end for each of 64 strings would read it 64 times.
    if (bytes.subarray(start, end).includes(BACKSLASH)) return null;
    const base64 = bytes.toString('latin1', start, end);
    const size = Buffer.byteLength(base64, 'base64');
    if (!out) {
      dims = size / 4;
      if (!Number.isInteger(dims) || dims === 0) return null;
      out = Buffer.from(new Float32Array(count * dims).buffer);
    }
    if (size !== dims * 4) return null;
    const slot = indexOf(bytes, bytes.lastIndexOf(OPEN, at), bytes.indexOf(CLOSE, end));
    if (slot === null || slot >= count || filled[slot]++) return null;
    out.write(base64, slot * dims * 4, dims * 4, 'base64');
    at = end + 1;
  }
  if (!out || found !== count) return null;
  const tokens = numberAfter(bytes, bytes.lastIndexOf(TOKENS_KEY));
  return { floats: new Float32Array(out.buffer, 0, count * dims), ...(tokens === null ? {} : { tokens }) };
}

/** The integer of the `"index"` key between `from` and `to` (one embedding's object), or null. */
function indexOf(bytes: Buffer, from: number, to: number): number | null {
  if (from < 0 || to < 0) return null;
  const at = bytes.indexOf(INDEX_KEY, from);
  return at >= 0 && at < to ? numberAfter(bytes, at, INDEX_KEY.length) : null;
}

/** The non-negative integer after the key at `at` and its colon, or null. */
function numberAfter(bytes: Buffer, at: number, keyLength = TOKENS_KEY.length): number | null {
  if (at < 0) return null;
  let i = at + keyLength;
  while (isSpace(bytes[i])) i++;
  if (bytes[i++] !== COLON) return null;
  while (isSpace(bytes[i])) i++;
  let value = -1;
  for (let digit = bytes[i]! - 0x30; digit >= 0 && digit <= 9; digit = bytes[++i]! - 0x30) value = Math.max(value, 0) * 10 + digit;
  return value < 0 ? null : value;
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
export const vectorsOf = <T extends Float32Array | Int16Array>(values: T, count: number): T[] => {
  const dims = values.length / count;
  return Array.from({ length: count }, (_, i) => values.subarray(i * dims, (i + 1) * dims) as T);
};

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
