// A real OpenAI-compatible embeddings server on 127.0.0.1 for tests: POST /v1/embeddings answers
// deterministic vectors. Each word is mapped to a concept (synonyms share one) and each concept to a
// dimension, so texts that say the same thing in other words come out close, and no word list
// match is needed. It records every request, can be told to fail (or to refuse batches over a size), and can hold chosen requests until
// released (answers out of order, or a provider still busy). Like OpenAI it answers
// `encoding_format: "base64"` with little-endian Float32 bytes; it can also play an older server that
// ignores the field (floats) or refuses it (400).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

export const DIMENSIONS = 64;
const CONCEPTS = new Map(Object.entries({ automobile: 'car', vehicle: 'car', upkeep: 'maintenance', servicing: 'maintenance' }));

export function stubVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  vector[0] = 0.01; // never the zero vector
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.get(word) ?? word;
    vector[1 + (createHash('sha256').update(concept).digest().readUInt32BE(0) % (DIMENSIONS - 1))]! += 1;
  }
  return vector;
}

export interface EmbeddingsStub {
  url: string;
  requests: Array<{ model: string; input: string[]; encodingFormat?: string }>;
  /** While set, every request fails with this HTTP status. */
  failWith: number | null;
  /** What the server does with `encoding_format: "base64"`: serve it (default), ignore it, or refuse it. */
  base64: 'served' | 'ignored' | 'refused';
  /** While set, a request of more texts than this is refused with 413 (a provider's limit per request). */
  maxInputs: number | null;
  /** While set, a request for which it answers true (given its number, from 1) waits for release(). */
  hold: ((request: number) => boolean) | null;
  /** Answers every request held so far. */
  release(): void;
  close(): Promise<void>;
}

export async function startEmbeddingsStub(): Promise<EmbeddingsStub> {
  const stub = { requests: [], failWith: null, maxInputs: null, base64: 'served', hold: null } as unknown as EmbeddingsStub;
  let held: Array<() => void> = [];
  stub.release = () => {
    for (const answer of held.splice(0)) answer();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string | string[]; encoding_format?: string };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      stub.requests.push({ model: body.model, input, encodingFormat: body.encoding_format });
      if (body.encoding_format === 'base64' && stub.base64 === 'refused') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'encoding_format must be float', type: 'invalid_request_error' } }));
        return;
      }
      if (stub.maxInputs !== null && input.length > stub.maxInputs) {
        res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `batch size ${input.length} > maximum allowed batch size ${stub.maxInputs}` } }));
        return;
      }
      if (stub.failWith) {
        res.writeHead(stub.failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the embedding stub is down', type: 'server_error' } }));
        return;
      }
      const base64 = body.encoding_format === 'base64' && stub.base64 === 'served';
      const encode = (v: number[]) => (base64 ? Buffer.from(Float32Array.from(v).buffer).toString('base64') : v);
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: encode(stubVector(text)) }));
      const answer = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: input.length, total_tokens: input.length } }));
      if (stub.hold?.(stub.requests.length)) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  stub.close = () => {
    stub.release();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return stub;
}
