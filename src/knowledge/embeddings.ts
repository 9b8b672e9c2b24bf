// The embedding model (EMBEDDING_MODEL on the OpenAI-compatible server of OPENAI_BASE_URL), called
// through the ai SDK's embedMany with a model of our own that asks for base64 (embeddingModel.ts).
// Vectors are kept L2-normalised, so cosine similarity is a dot product, and travel with their
// chunks in the same pack document (store.ts). A sync's batches come back quantised as packs store
// them (vectorCodec.ts), done on the embedding thread.
// Like the chat model, the server is the operator's own configuration, not user input, so it is
// called directly rather than through src/outbound's SSRF guard.
import { APICallError, embedMany } from 'ai';
import { createEmbeddingModel } from './embeddingModel.ts';
import { startEmbeddingThread } from './embeddingThreadClient.ts';
import type { Config } from '../config.ts';
import type { RowChunks } from './store.ts';
import { NOT_FINITE } from './embeddingAnswer.ts';
import type { StoredVectors } from './vectorCodec.ts';

export interface Embedder {
  /** The model name; stored with every vector so a change of model is seen. */
  model: string;
  batchSize: number;
  /** Cosine similarity below which a chunk is no vector hit (EMBEDDING_MIN_SIMILARITY). */
  minSimilarity: number;
  /** One normalised vector per text, in order. Throws EmbeddingError. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** The texts' vectors as packs store them (a sync's batches), in order. Throws EmbeddingError. */
  embedStored(texts: string[], signal?: AbortSignal): Promise<StoredVectors>;
}

export class EmbeddingError extends Error {
  /** The provider's HTTP status, when it answered one. */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const NO_VECTORS: StoredVectors = { codes: new Int16Array(0), scales: new Float32Array(0) };

export const normalise = (vector: ArrayLike<number>): Float32Array => normaliseInPlace(Float32Array.from(vector));

/** Scales `vector` itself to length 1 (a zero vector stays zero); throws if it holds a non-number. */
function normaliseInPlace(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  if (!Number.isFinite(norm)) throw new EmbeddingError(NOT_FINITE);
  norm = Math.sqrt(norm) || 1;
  // Most models answer unit vectors already.
  if (Math.abs(norm - 1) > 1e-6) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** The text a chunk is embedded as: its heading path gives the body its subject. */
export const embeddingText = (chunk: { heading: string | null; text: string }) => (chunk.heading ? `${chunk.heading}\n\n${chunk.text}` : chunk.text);

/** One array of several, end to end. */
export function joinArrays<T extends Float32Array | Int16Array>(Type: { new (length: number): T }, parts: T[]): T {
  const out = new Type(parts.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const v of parts) {
    out.set(v, at);
    at += v.length;
  }
  return out;
}

const byConfig = new WeakMap<Config, Embedder>();

/** The configured embedder, or null when EMBEDDING_MODEL is not set (BM25 alone). */
export function embedderFor(config: Config): Embedder | null {
  if (!config.EMBEDDING_MODEL || !config.OPENAI_BASE_URL) return null;
  let embedder = byConfig.get(config);
  if (!embedder || embedder.model !== config.EMBEDDING_MODEL || embedder.minSimilarity !== config.EMBEDDING_MIN_SIMILARITY) byConfig.set(config, (embedder = createEmbedder(config)));
  return embedder;
}

/**
 * Starts the thread a sync's batches are answered on (embeddingThread.ts) ahead of the first sync:
 * started by that sync's first request instead, the thread is not ready for its first batches,
 * which are then received and decoded on the main thread, where the sync's own work runs.
 */
export function prepareSyncEmbedding(config: Config): void {
  if (embedderFor(config)) void startEmbeddingThread();
}

export function createEmbedder(config: Pick<Config, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'EMBEDDING_MODEL' | 'EMBEDDING_BATCH_SIZE' | 'EMBEDDING_TIMEOUT_MS' | 'EMBEDDING_MIN_SIMILARITY'>): Embedder {
  const modelName = config.EMBEDDING_MODEL!;
  const model = createEmbeddingModel({ baseURL: config.OPENAI_BASE_URL!, apiKey: config.OPENAI_API_KEY, modelId: modelName });
  /** One embedMany call; the result checked by `read`, any failure an EmbeddingError (with the provider's status, if any). */
  async function call<T>(texts: string[], stored: boolean, signal: AbortSignal | undefined, read: (result: Awaited<ReturnType<typeof embedMany>>) => T): Promise<T> {
    const timeout = AbortSignal.timeout(config.EMBEDDING_TIMEOUT_MS);
    try {
      const result = await embedMany({
        model,
        values: texts,
        // The caller decides: a sync fails with the reason, a chat falls back to BM25.
        maxRetries: 0,
        maxParallelCalls: 1,
        abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        ...(stored ? { providerOptions: { relay: { stored: true } } } : {}),
      });
      if (result.embeddings.length !== texts.length) throw new EmbeddingError(`expected ${texts.length} vectors, got ${result.embeddings.length}`);
      return read(result);
    } catch (err) {
      if (err instanceof EmbeddingError) throw new EmbeddingError(`embedding model ${modelName}: ${err.message}`);
      const status = APICallError.isInstance(err) ? err.statusCode : undefined;
      const detail = APICallError.isInstance(err) ? `${status ?? 'no response'} ${err.message}` : err instanceof Error ? err.message : String(err);
      throw new EmbeddingError(`embedding model ${modelName} failed: ${detail}`, status);
    }
  }
  return {
    model: modelName,
    batchSize: config.EMBEDDING_BATCH_SIZE,
    minSimilarity: config.EMBEDDING_MIN_SIMILARITY,
    async embed(texts, signal) {
      if (!texts.length) return [];
      return call(texts, false, signal, ({ embeddings }) => {
        // Float32Array views into one array per request (embeddingModel.ts), normalised where they lie.
        const vectors = (embeddings as unknown as Float32Array[]).map(normaliseInPlace);
        if (vectors.some((v) => v.length !== vectors[0]!.length || v.length === 0)) throw new EmbeddingError('vectors of different or zero dimensions');
        return vectors;
      });
    },
    async embedStored(texts, signal) {
      if (!texts.length) return NO_VECTORS;
      return call(texts, true, signal, ({ providerMetadata }) => {
        const stored = (providerMetadata?.relay as { stored?: StoredVectors } | undefined)?.stored;
        if (!stored || stored.scales.length !== texts.length || !stored.codes.length) throw new EmbeddingError('vectors of different or zero dimensions');
        return stored;
      });
    },
  };
}

/** Requests in flight at once during a sync: the provider's time overlaps, its load stays bounded. */
const SYNC_PARALLEL_REQUESTS = 4;

/**
 * A sync's batches start at EMBEDDING_BATCH_SIZE and double, up to GROWTH times it, while each answer
 * comes back within FAST_SHARE of EMBEDDING_TIMEOUT_MS: each request costs the sync CPU of its own
 * whatever its size, and a provider that answers that fast has room.
 * With 4 requests in flight a doubled batch still ends well inside the timeout. A provider that
 * refuses a grown batch (400, 413, 422: a limit on inputs per request) gets it again in batches of
 * EMBEDDING_BATCH_SIZE, and no grown batch after that (per embedder).
 */
const GROWTH = 4;
const FAST_SHARE = 1 / 16;
const REFUSED_SIZE = new Set([400, 413, 422]);
/** A batch goes out once its chunks reach this many tokens: OpenAI refuses a request of more than 300,000. */
const BATCH_TOKENS = 100_000;
const refusedGrowth = new WeakSet<Embedder>();

/**
 * Embeds row groups while the sync is still reading and chunking the next ones: a full batch of
 * chunks goes out as soon as it is there, so the provider's time (and the parsing of its answer)
 * overlaps the sync's own reading instead of following it. `add` waits while SYNC_PARALLEL_REQUESTS
 * are open. Each group gets its vectors as soon as all of them are back, and is handed to
 * `onEmbedded` in the order added (the sync writes its pack then). `finish` sends the rest and waits;
 * a provider error rejects it, so a sync never commits rows half embedded.
 */
export class EmbeddingPipeline {
  /** Groups added and not yet handed on, with the index just after their last text. */
  private readonly waiting: Array<{ group: RowChunks; end: number }> = [];
  private texts: string[] = [];
  private queued = 0;
  /** Answers that came back ahead of an earlier batch, by the index of their first text. */
  private readonly early = new Map<number, StoredVectors>();
  /** Batches back in order whose vectors are not all given to groups; `used` of the first are. */
  private ready: StoredVectors[] = [];
  private used = 0;
  /** Vectors back in order and not yet given to a group; the first is text `handedOn`. */
  private unused = 0;
  private handedOn = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private failed: { err: unknown } | null = null;
  /** Texts per request now (see GROWTH), and the chunk tokens of those waiting to go. */
  private size: number;
  private tokens = 0;
  private readonly now: () => number;

  constructor(
    private readonly embedder: Embedder,
    private readonly hooks: {
      afterBatch?: () => Promise<void>;
      onEmbedded?: (group: RowChunks) => void;
      /** EMBEDDING_TIMEOUT_MS: without it batches keep EMBEDDING_BATCH_SIZE. */
      timeoutMs?: number;
      now?: () => number;
    } = {},
  ) {
    this.size = embedder.batchSize;
    this.now = hooks.now ?? (() => performance.now());
  }

  async add(group: RowChunks): Promise<void> {
    this.waiting.push({ group, end: this.queued + this.texts.length + group.chunks.length });
    for (const chunk of group.chunks) {
      this.texts.push(embeddingText(chunk));
      this.tokens += chunk.tokens;
      while (this.texts.length >= this.size || this.tokens >= BATCH_TOKENS) await this.send();
    }
  }

  async finish(): Promise<void> {
    while (this.texts.length) await this.send();
    await Promise.all(this.inFlight);
    if (this.failed) throw this.failed.err;
    this.received(this.queued, NO_VECTORS);
  }

  /** Hands nothing more on and waits for the requests in flight (a sync that failed otherwise). */
  async stop(): Promise<void> {
    this.failed ??= { err: new Error('embedding stopped') };
    await Promise.all(this.inFlight);
  }

  private async send(): Promise<void> {
    if (this.failed) throw this.failed.err;
    while (this.inFlight.size >= SYNC_PARALLEL_REQUESTS) await Promise.race(this.inFlight);
    // At most `size` texts: the size falls back when a grown batch is refused, with more waiting.
    const [start, batch] = [this.queued, this.texts.splice(0, this.size)];
    this.queued += batch.length;
    this.tokens = 0;
    const request = this.embed(start, batch)
      .then(() => this.hooks.afterBatch?.())
      .catch((err: unknown) => void (this.failed ??= { err }))
      .finally(() => this.inFlight.delete(request));
    this.inFlight.add(request);
  }

  /** One batch's vectors, handed on; a grown batch the provider refuses goes again at EMBEDDING_BATCH_SIZE. */
  private async embed(start: number, batch: string[]): Promise<void> {
    const base = this.embedder.batchSize;
    const started = this.now();
    let vectors: StoredVectors;
    try {
      vectors = await this.embedder.embedStored(batch);
    } catch (err) {
      if (batch.length <= base || !(err instanceof EmbeddingError) || !REFUSED_SIZE.has(err.status ?? 0)) throw err;
      refusedGrowth.add(this.embedder);
      this.size = base;
      for (let at = 0; at < batch.length; at += base) this.received(start + at, await this.embedder.embedStored(batch.slice(at, at + base)));
      return;
    }
    const { timeoutMs } = this.hooks;
    if (timeoutMs && batch.length === this.size && this.now() - started <= timeoutMs * FAST_SHARE && !refusedGrowth.has(this.embedder)) {
      this.size = Math.min(2 * this.size, GROWTH * base, 2048);
    }
    this.received(start, vectors);
  }

  /** Takes a batch's vectors and hands on every group whose vectors are all back. */
  private received(start: number, vectors: StoredVectors): void {
    if (this.failed) return;
    this.early.set(start, vectors);
    let inOrder: StoredVectors | undefined;
    while ((inOrder = this.early.get(this.handedOn + this.unused))) {
      this.early.delete(this.handedOn + this.unused);
      if (!inOrder.scales.length) break;
      this.ready.push(inOrder);
      this.unused += inOrder.scales.length;
    }
    while (this.waiting.length && this.waiting[0]!.end <= this.handedOn + this.unused) {
      const { group } = this.waiting.shift()!;
      const stored = this.take(group.chunks.length);
      // Vectors of two sizes (a provider that changed dimensions) are left out: the next sync embeds the row again.
      if (stored) group.embedding = { model: this.embedder.model, stored };
      this.hooks.onEmbedded?.(group);
    }
  }

  /** The next `count` vectors: views into their batch, or copied together when they span batches. */
  private take(count: number): StoredVectors | null {
    const parts: StoredVectors[] = [];
    for (let left = count; left > 0; ) {
      const batch = this.ready[0]!;
      const dims = batch.codes.length / batch.scales.length;
      const n = Math.min(left, batch.scales.length - this.used);
      parts.push({ codes: batch.codes.subarray(this.used * dims, (this.used + n) * dims), scales: batch.scales.subarray(this.used, this.used + n) });
      left -= n;
      this.used += n;
      if (this.used === batch.scales.length) {
        this.ready.shift();
        this.used = 0;
      }
    }
    this.unused -= count;
    this.handedOn += count;
    if (parts.length === 1) return parts[0]!;
    const dims = parts.map((p) => p.codes.length / p.scales.length);
    if (dims.some((d) => d !== dims[0])) return null;
    return { codes: joinArrays(Int16Array, parts.map((p) => p.codes)), scales: joinArrays(Float32Array, parts.map((p) => p.scales)) };
  }
}

/** Embeds every chunk of these row groups in batches and attaches the vectors to each group. */
export async function embedRows(embedder: Embedder, groups: RowChunks[], afterBatch?: () => Promise<void>): Promise<void> {
  const pipeline = new EmbeddingPipeline(embedder, { afterBatch });
  for (const group of groups) await pipeline.add(group);
  await pipeline.finish();
}
