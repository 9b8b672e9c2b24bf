// The main thread's side of the embedding thread (embeddingThread.ts): one thread per process,
// started at the first request, keeping the process alive only while a request is open. If it cannot start or dies,
// its requests, and every later one, are made on the main thread instead.
import { Worker } from 'node:worker_threads';
import { requestEmbeddings, type EmbeddingAnswer, type EmbeddingRequest } from './embeddingAnswer.ts';
import type { ThreadRequest } from './embeddingThread.ts';

interface Pending {
  request: EmbeddingRequest;
  signal?: AbortSignal;
  resolve: (answer: EmbeddingAnswer) => void;
  reject: (err: unknown) => void;
}

let thread: { worker: Worker; pending: Map<number, Pending>; ready: Promise<boolean>; isReady: boolean } | null | undefined;
let nextId = 0;

function start(): typeof thread {
  let worker: Worker;
  try {
    if (!import.meta.url.endsWith('.ts')) worker = new Worker(new URL('./embeddingThread.js', import.meta.url));
    else {
      // Run from source (tsx, vitest), the thread registers tsx itself: on Node 20 a worker's
      // `--import tsx` does not apply to its own entry file.
      const entry = JSON.stringify(new URL('./embeddingThread.ts', import.meta.url).href);
      worker = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); })`, { eval: true });
    }
  } catch {
    return null;
  }
  worker.unref();
  let becameReady = (_ready: boolean) => {};
  const started = { worker, pending: new Map<number, Pending>(), ready: new Promise<boolean>((resolve) => (becameReady = resolve)), isReady: false };
  const { pending } = started;
  worker.on('message', (msg: { id: number; answer?: EmbeddingAnswer; aborted?: string; ready?: true }) => {
    if (msg.ready) {
      started.isReady = true;
      return becameReady(true);
    }
    const p = pending.get(msg.id);
    if (!p) return;
    settled(started, msg.id);
    if (msg.answer) p.resolve(msg.answer);
    else p.reject(p.signal?.reason ?? new Error(msg.aborted));
  });
  const fallBack = () => {
    if (thread === started) thread = null;
    becameReady(false);
    for (const p of pending.values()) requestEmbeddings(p.request, p.signal).then(p.resolve, p.reject);
    pending.clear();
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return started;
}

function settled(on: NonNullable<typeof thread>, id: number): void {
  on.pending.delete(id);
  if (!on.pending.size) on.worker.unref();
}

/** Starts the embedding thread if it is not running; true once it takes requests, false if it cannot. */
export function startEmbeddingThread(): Promise<boolean> {
  if (thread === undefined) thread = start();
  return thread ? thread.ready : Promise.resolve(false);
}

/** The answer to one embeddings request, received and decoded on the embedding thread once it is ready. */
export function onEmbeddingThread(request: EmbeddingRequest, signal?: AbortSignal): Promise<EmbeddingAnswer> {
  void startEmbeddingThread();
  const current = thread;
  if (!current?.isReady) return requestEmbeddings(request, signal);
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<EmbeddingAnswer>((resolve, reject) => {
    const id = nextId++;
    // Held while it answers, so a process with nothing else to do waits for it.
    if (!current.pending.size) current.worker.ref();
    current.pending.set(id, { request, signal, resolve, reject });
    signal?.addEventListener(
      'abort',
      () => {
        if (!current.pending.has(id)) return;
        settled(current, id);
        current.worker.postMessage({ id, abort: true } satisfies ThreadRequest);
        reject(signal.reason);
      },
      { once: true },
    );
    current.worker.postMessage({ id, request } satisfies ThreadRequest);
  });
}
