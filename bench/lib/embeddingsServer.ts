// An OpenAI-compatible /v1/embeddings server in a process of its own, for bench/embeddings.ts: it
// answers precomputed normalised vectors (BENCH_VECTOR_DIMS) at once, and reports how long at least
// one request was in flight (the provider's wall time), so the sync's own overhead can be told apart.
// Like OpenAI, it answers `encoding_format: "base64"` with the vectors' little-endian Float32 bytes;
// BENCH_EMBEDDING_FORMAT=float makes it answer float arrays whatever is asked (an older server).
// BENCH_PROVIDER_LATENCY_MS holds each answer back that long, as a real provider's compute would
// (none by default: the sync's own work then has no wait to overlap with).
import http from 'node:http';

const DIMS = Number(process.env.BENCH_VECTOR_DIMS ?? 384);
let seed = 9;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
const FLOATS_ONLY = process.env.BENCH_EMBEDDING_FORMAT === 'float';
const LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 0);
const vectors = Array.from({ length: 256 }, () => {
  const v = Array.from({ length: DIMS }, random);
  const norm = Math.hypot(...v);
  return v.map((x) => Number((x / norm).toFixed(6)));
});
const pool = { float: vectors.map((v) => JSON.stringify(v)), base64: vectors.map((v) => JSON.stringify(Buffer.from(Float32Array.from(v).buffer).toString('base64'))) };

let inFlight = 0;
let busySince = 0;
let busyMs = 0;
let requests = 0;
let inputs = 0;
const server = http.createServer((req, res) => {
  if (inFlight++ === 0) busySince = performance.now();
  res.on('finish', () => {
    if (--inFlight === 0) busyMs += performance.now() - busySince;
  });
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[]; encoding_format?: string };
    const answers = body.encoding_format === 'base64' && !FLOATS_ONLY ? pool.base64 : pool.float;
    requests++;
    inputs += body.input.length;
    const data = body.input.map((_, i) => `{"object":"embedding","index":${i},"embedding":${answers[(inputs + i) % answers.length]}}`).join(',');
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"object":"list","data":[${data}],"model":"bench","usage":{"prompt_tokens":1,"total_tokens":1}}`);
    if (LATENCY_MS > 0) setTimeout(answer, LATENCY_MS);
    else answer();
  });
});
server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1` }));
process.on('message', (msg: { report?: boolean; close?: boolean }) => {
  if (msg.report) {
    process.send!({ busyMs, requests, inputs });
    busyMs = 0;
    requests = 0;
    inputs = 0;
  }
  if (msg.close) server.close(() => process.exit(0));
});
// A bench that failed without closing it leaves no server behind.
process.on('disconnect', () => process.exit(0));
