// The thread that runs a sync's embedding requests: it receives each answer (~130 KB of base64 JSON
// per batch of 64 at 384 dimensions), decodes it, quantises the vectors as packs store them, and
// hands the main thread the integers and scales as transferred arrays. Reading the answers, and then
// normalising and quantising their vectors, was most of the CPU an embedding sync added to the main
// thread, where the sync's chunking and writing run (docs/BENCHMARKS.md, issue 18).
import { parentPort } from 'node:worker_threads';
import { requestEmbeddings, type EmbeddingAnswer, type EmbeddingRequest } from './embeddingAnswer.ts';

export type ThreadRequest = { id: number; request: EmbeddingRequest } | { id: number; abort: true };

const open = new Map<number, AbortController>();
parentPort!.on('message', (msg: ThreadRequest) => {
  if ('abort' in msg) return open.get(msg.id)?.abort();
  const controller = new AbortController();
  open.set(msg.id, controller);
  requestEmbeddings(msg.request, controller.signal)
    .then(
      (answer) => parentPort!.postMessage({ id: msg.id, answer }, transferred(answer)),
      (err: unknown) => parentPort!.postMessage({ id: msg.id, aborted: String(err) }),
    )
    .finally(() => open.delete(msg.id));
});
parentPort!.postMessage({ ready: true });

function transferred(answer: EmbeddingAnswer): ArrayBuffer[] {
  if (answer.kind === 'vectors') return [answer.floats.buffer as ArrayBuffer];
  if (answer.kind === 'stored') return [answer.vectors.codes.buffer as ArrayBuffer, answer.vectors.scales.buffer as ArrayBuffer];
  return [];
}
