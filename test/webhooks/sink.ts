// A real local HTTP server standing in for a webhook receiver: records every request with its raw
// body bytes and answers as the test tells it (status, headers, body, or never).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

export type SinkReply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';
export type SinkHandler = (req: ReceivedRequest, index: number) => SinkReply | Promise<SinkReply>;

export interface Sink {
  url: string;
  requests: ReceivedRequest[];
  reply(handler: SinkHandler): void;
  close(): Promise<void>;
}

export async function startSink(handler: SinkHandler = () => ({ status: 200, body: 'ok' })): Promise<Sink> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const received: ReceivedRequest = { method: req.method!, path: req.url!, headers: req.headers, raw: Buffer.concat(chunks) };
      const index = requests.push(received) - 1;
      const reply = await current(received, index);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(h) {
      current = h;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
