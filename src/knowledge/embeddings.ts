// The embedding model (EMBEDDING_MODEL on the OpenAI-compatible server of OPENAI_BASE_URL), called
// through the ai SDK's embedMany with a model of our own that asks for base64 (embeddingModel.ts). Vectors are kept L2-normalised as Float32, so cosine similarity
// is a dot product, and travel with their chunks in the same pack document (store.ts).
// Like the chat model, the server is the operator's own configuration, not user input, so it is
// called directly rather than through src/outbound's SSRF guard.
import { APICallError, embedMany } from 'ai';
import { createEmbeddingModel } from './embeddingModel.ts';
import type { Config } from '../config.ts';
import type { RowChunks } from './store.ts';

export interface Embedder {
  /** The model name; stored with every vector so a change of model is seen. */
  model: string;
  batchSize: number;
  /** Cosine similarity below which a chunk is no vector hit (EMBEDDING_MIN_SIMILARITY). */
  minSimilarity: number;
  /** One normalised vector per text, in order. Throws EmbeddingError. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export class EmbeddingError extends Error {}

export const normalise = (vector: ArrayLike<number>): Float32Array => normaliseInPlace(Float32Array.from(vector));

/** Scales `vector` itself to length 1 (a zero vector stays zero); throws if it holds a non-number. */
function normaliseInPlace(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  if (!Number.isFinite(norm)) throw new EmbeddingError('a vector holds a value that is not a finite number');
  norm = Math.sqrt(norm) || 1;
  // Most models answer unit vectors already.
  if (Math.abs(norm - 1) > 1e-6) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** The text a chunk is embedded as: its heading path gives the body its subject. */
export const embeddingText = (chunk: { heading: string | null; text: string }) => (chunk.heading ? `${chunk.heading}\n\n${chunk.text}` : chunk.text);

/** One array of several vectors, end to end. */
export function joinFloats(vectors: Float32Array[]): Float32Array {
  const out = new Float32Array(vectors.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const v of vectors) {
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

export function createEmbedder(config: Pick<Config, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'EMBEDDING_MODEL' | 'EMBEDDING_BATCH_SIZE' | 'EMBEDDING_TIMEOUT_MS' | 'EMBEDDING_MIN_SIMILARITY'>): Embedder {
  const modelName = config.EMBEDDING_MODEL!;
  const model = createEmbeddingModel({ baseURL: config.OPENAI_BASE_URL!, apiKey: config.OPENAI_API_KEY, modelId: modelName });
  return {
    model: modelName,
    batchSize: config.EMBEDDING_BATCH_SIZE,
    minSimilarity: config.EMBEDDING_MIN_SIMILARITY,
    async embed(texts, signal) {
      if (!texts.length) return [];
      const timeout = AbortSignal.timeout(config.EMBEDDING_TIMEOUT_MS);
      try {
        const { embeddings } = await embedMany({
          model,
          values: texts,
          // The caller decides: a sync fails with the reason, a chat falls back to BM25.
          maxRetries: 0,
          maxParallelCalls: 1,
          abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (embeddings.length !== texts.length) throw new EmbeddingError(`expected ${texts.length} vectors, got ${embeddings.length}`);
        // Float32Array views into one array per request (embeddingModel.ts), normalised where they lie.
        const vectors = (embeddings as unknown as Float32Array[]).map(normaliseInPlace);
        if (vectors.some((v) => v.length !== vectors[0]!.length || v.length === 0)) throw new EmbeddingError('vectors of different or zero dimensions');
        return vectors;
      } catch (err) {
        if (err instanceof EmbeddingError) throw new EmbeddingError(`embedding model ${modelName}: ${err.message}`);
        const detail = APICallError.isInstance(err) ? `${err.statusCode ?? 'no response'} ${err.message}` : err instanceof Error ? err.message : String(err);
        throw new EmbeddingError(`embedding model ${modelName} failed: ${detail}`);
      }
    },
  };
}

/** Requests in flight at once during a sync: the provider's time overlaps, its load stays bounded. */
const SYNC_PARALLEL_REQUESTS = 4;

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
  private readonly early = new Map<number, Float32Array[]>();
  /** Vectors back in order and not yet given to a group; the first is text `handedOn`. */
  private vectors: Float32Array[] = [];
  private handedOn = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private failed: { err: unknown } | null = null;

  constructor(
    private readonly embedder: Embedder,
    private readonly hooks: { afterBatch?: () => Promise<void>; onEmbedded?: (group: RowChunks) => void } = {},
  ) {}

  async add(group: RowChunks): Promise<void> {
    this.waiting.push({ group, end: this.queued + this.texts.length + group.chunks.length });
    for (const chunk of group.chunks) {
      this.texts.push(embeddingText(chunk));
      if (this.texts.length === this.embedder.batchSize) await this.send();
    }
  }

  async finish(): Promise<void> {
    if (this.texts.length) await this.send();
    await Promise.all(this.inFlight);
    if (this.failed) throw this.failed.err;
    this.received(this.queued, []);
  }

  /** Hands nothing more on and waits for the requests in flight (a sync that failed otherwise). */
  async stop(): Promise<void> {
    this.failed ??= { err: new Error('embedding stopped') };
    await Promise.all(this.inFlight);
  }

  private async send(): Promise<void> {
    if (this.failed) throw this.failed.err;
    while (this.inFlight.size >= SYNC_PARALLEL_REQUESTS) await Promise.race(this.inFlight);
    const [start, batch] = [this.queued, this.texts];
    this.queued += batch.length;
    this.texts = [];
    const request = this.embedder
      .embed(batch)
      .then(async (vectors) => {
        this.received(start, vectors);
        await this.hooks.afterBatch?.();
      })
      .catch((err: unknown) => void (this.failed ??= { err }))
      .finally(() => this.inFlight.delete(request));
    this.inFlight.add(request);
  }

  /** Takes a batch's vectors and hands on every group whose vectors are all back. */
  private received(start: number, vectors: Float32Array[]): void {
    if (this.failed) return;
    this.early.set(start, vectors);
    let inOrder: Float32Array[] | undefined;
    while ((inOrder = this.early.get(this.handedOn + this.vectors.length))) {
      this.early.delete(this.handedOn + this.vectors.length);
      if (!inOrder.length) break;
      this.vectors.push(...inOrder);
    }
    let used = 0;
    while (this.waiting.length && this.waiting[0]!.end <= this.handedOn + this.vectors.length) {
      const { group } = this.waiting.shift()!;
      const count = group.chunks.length;
      group.embedding = { model: this.embedder.model, vectors: joinFloats(this.vectors.slice(used, used + count)) };
      used += count;
      this.hooks.onEmbedded?.(group);
    }
    this.vectors = this.vectors.slice(used);
    this.handedOn += used;
  }
}

/** Embeds every chunk of these row groups in batches and attaches the vectors to each group. */
export async function embedRows(embedder: Embedder, groups: RowChunks[], afterBatch?: () => Promise<void>): Promise<void> {
  const pipeline = new EmbeddingPipeline(embedder, { afterBatch });
  for (const group of groups) await pipeline.add(group);
  await pipeline.finish();
}
