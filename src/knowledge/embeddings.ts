// The embedding model (EMBEDDING_MODEL on the OpenAI-compatible server of OPENAI_BASE_URL), called
// through the ai SDK's embedMany. Vectors are kept L2-normalised as Float32, so cosine similarity
// is a dot product, and travel with their chunks in the same pack document (store.ts).
// Like the chat model, the server is the operator's own configuration, not user input, so it is
// called directly rather than through src/outbound's SSRF guard.
import { APICallError, embedMany } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
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

export function normalise(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += out[i]! * out[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
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
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: config.OPENAI_BASE_URL!, apiKey: config.OPENAI_API_KEY });
  const model = provider.embeddingModel(modelName);
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
        const vectors = embeddings.map(normalise);
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
 * Embeds every chunk of these row groups in batches and attaches the vectors to each group. A
 * provider error rejects the whole call, so a sync never commits rows half embedded.
 */
export async function embedRows(embedder: Embedder, groups: RowChunks[], afterBatch: () => Promise<void> = async () => undefined): Promise<void> {
  const texts = groups.flatMap((g) => g.chunks.map(embeddingText));
  const batches: Array<[number, string[]]> = [];
  for (let i = 0; i < texts.length; i += embedder.batchSize) batches.push([i, texts.slice(i, i + embedder.batchSize)]);
  const vectors: Float32Array[] = new Array(texts.length);
  let next = 0;
  let failed: unknown = null;
  const worker = async () => {
    while (next < batches.length && !failed) {
      const [start, batch] = batches[next++]!;
      try {
        (await embedder.embed(batch)).forEach((v, i) => (vectors[start + i] = v));
        await afterBatch();
      } catch (err) {
        failed ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SYNC_PARALLEL_REQUESTS, batches.length) }, worker));
  if (failed) throw failed;
  let at = 0;
  for (const group of groups) {
    group.embedding = { model: embedder.model, vectors: joinFloats(vectors.slice(at, at + group.chunks.length)) };
    at += group.chunks.length;
  }
}
