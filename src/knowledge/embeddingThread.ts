// The thread that runs a sync's embedding requests: it receives each answer (~2 MB of base64 JSON
// per batch of 64 at 384 dimensions), parses and decodes it, and hands the main thread the vectors
// as one transferred array. Reading those bytes was most of the CPU an embedding sync added to
// the main thread, where the sync's chunking and writing run (docs/BENCHMARKS.md, issue 18).
import { parentPort } from 'node:worker_threads';
import { requestEmbeddings, type EmbeddingRequest } from './embeddingAnswer.ts';

export type ThreadRequest = { id: number; request: EmbeddingRequest } | { id: number; abort: true };

const open = new Map<number, AbortController>();
parentPort!.on('message', (msg: ThreadRequest) => {
  if ('abort' in msg) return open.get(msg.id)?.abort();
  const controller = new AbortController();
  open.set(msg.id, controller);
  requestEmbeddings(msg.request, controller.signal)
    .then(
      (answer) => parentPort!.postMessage({ id: msg.id, answer }, answer.kind === 'vectors' ? [answer.floats.buffer as ArrayBuffer] : []),
      (err: unknown) => parentPort!.postMessage({ id: msg.id, aborted: String(err) }),
    )
    .finally(() => open.delete(msg.id));
});
parentPort!.postMessage({ ready: true });
