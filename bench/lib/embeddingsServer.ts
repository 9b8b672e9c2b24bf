// An OpenAI-compatible /v1/embeddings server in a process of its own, for bench/embeddings.ts: it
// answers precomputed normalised vectors (BENCH_VECTOR_DIMS) at once, and reports how long at least
// one request was in flight (the provider's wall time), so the sync's own overhead can be told apart.
import http from 'node:http';

const DIMS = Number(process.env.BENCH_VECTOR_DIMS ?? 384);
let seed = 9;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
const pool = Array.from({ length: 256 }, () => {
  const v = Array.from({ length: DIMS }, random);
  const norm = Math.hypot(...v);
  return JSON.stringify(v.map((x) => Number((x / norm).toFixed(6))));
});

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
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
    requests++;
    inputs += body.input.length;
    const data = body.input.map((_, i) => `{"object":"embedding","index":${i},"embedding":${pool[(inputs + i) % pool.length]}}`).join(',');
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"object":"list","data":[${data}],"model":"bench","usage":{"prompt_tokens":1,"total_tokens":1}}`);
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
