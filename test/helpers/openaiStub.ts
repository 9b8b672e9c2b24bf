// A real OpenAI-compatible HTTP server on 127.0.0.1 for tests: POST /v1/chat/completions, streamed
// (SSE) or whole, answering from a queue of scripted replies (text, a tool call, or a failure).
// It records every request body and notices clients that hang up mid-stream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubReply {
  /** Reply text; an array gives the streamed deltas one by one. */
  text?: string | string[];
  /** A tool call instead of text. */
  toolCall?: { name: string; arguments: Record<string, unknown> };
  /** Fail with this HTTP status and an OpenAI-style error body. */
  status?: number;
  errorMessage?: string;
  /** Streamed only: after the deltas, keep the response open until the client hangs up. */
  hang?: boolean;
  /** Hold the reply until this settles: a whole reply or a failure is sent only then; a text stream pauses after its first delta. */
  until?: Promise<unknown>;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface OpenAIStub {
  url: string;
  /** Request bodies in arrival order. */
  requests: Array<{ model: string; stream?: boolean; messages: Array<{ role: string; content: unknown }>; tools?: unknown[] }>;
  /** How many streamed responses the client abandoned before they ended. */
  hangUps: number;
  enqueue(...replies: StubReply[]): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY: StubReply = { text: 'stub reply' };

export async function startOpenAIStub(): Promise<OpenAIStub> {
  const queue: StubReply[] = [];
  const stub = { requests: [], hangUps: 0 } as unknown as OpenAIStub;
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      stub.requests.push(body);
      const reply = queue.shift() ?? DEFAULT_REPLY;
      const id = `chatcmpl-stub-${++n}`;
      const answer = () => {
        if (reply.status) {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: reply.errorMessage ?? 'stub failure', type: 'server_error', code: null } }));
          return;
        }
        const usage = { prompt_tokens: 10, completion_tokens: 5, ...reply.usage };
        const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
        if (body.stream) void streamReply(res, body, reply, id, fullUsage, () => stub.hangUps++);
        else wholeReply(res, body, reply, id, fullUsage);
      };
      // A held stream pauses after its first delta (streamReply); a whole reply or a failure waits here.
      if (reply.until && (reply.status || !body.stream)) void reply.until.then(answer);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}/v1`,
    enqueue: (...replies: StubReply[]) => void queue.push(...replies),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

const toolCallOf = (reply: StubReply, id: string) => ({ id: `call_${id}`, type: 'function', function: { name: reply.toolCall!.name, arguments: JSON.stringify(reply.toolCall!.arguments) } });

function wholeReply(res: http.ServerResponse, body: { model: string }, reply: StubReply, id: string, usage: object) {
  const text = Array.isArray(reply.text) ? reply.text.join('') : (reply.text ?? null);
  const message = reply.toolCall ? { role: 'assistant', content: null, tool_calls: [toolCallOf(reply, id)] } : { role: 'assistant', content: text };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message, finish_reason: reply.toolCall ? 'tool_calls' : 'stop' }],
      usage,
    }),
  );
}

async function streamReply(res: http.ServerResponse, body: { model: string }, reply: StubReply, id: string, usage: object, onHangUp: () => void) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const created = Math.floor(Date.now() / 1000);
  const send = (choices: unknown[], extra: object = {}) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra })}\n\n`);
  send([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  if (reply.toolCall) {
    const call = toolCallOf(reply, id);
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    send([{ index: 0, delta: { tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }]);
    for (const piece of [args.slice(0, half), args.slice(half)]) send([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null }]);
  } else {
    const deltas = Array.isArray(reply.text) ? reply.text : [reply.text ?? ''];
    for (const [i, delta] of deltas.entries()) {
      send([{ index: 0, delta: { content: delta }, finish_reason: null }]);
      if (i === 0 && reply.until) await reply.until;
    }
  }
  if (reply.hang) {
    res.on('close', () => {
      if (!res.writableFinished) onHangUp();
    });
    return;
  }
  send([{ index: 0, delta: {}, finish_reason: reply.toolCall ? 'tool_calls' : 'stop' }]);
  send([], { usage });
  res.end('data: [DONE]\n\n');
}
