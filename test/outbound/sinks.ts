// Real local HTTP sinks on 127.0.0.1 for outbound client tests: each records what it received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Sink {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** connections accepted, including ones that never sent a full request */
  connections: number;
  close(): Promise<void>;
}

export type SinkHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

export async function startSink(handler: SinkHandler): Promise<Sink> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  const sink = { received, connections: 0 } as Sink;
  server.on('connection', () => {
    sink.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  sink.port = port;
  sink.url = `http://127.0.0.1:${port}`;
  sink.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sink;
}

/**
 * Writes `total` bytes of `chunk` honouring backpressure and stops when the client goes away;
 * `progress.done` settles when the response is closed either way.
 */
export function streamBytes(res: http.ServerResponse, total: number, chunk: Buffer, progress: { sent: number; done?: Promise<void> }): void {
  let closed = false;
  progress.done = new Promise((resolve) => res.on('close', resolve));
  res.on('close', () => {
    closed = true;
  });
  const pump = (): void => {
    while (!closed && progress.sent < total) {
      const part = chunk.subarray(0, Math.min(chunk.length, total - progress.sent));
      progress.sent += part.length;
      if (!res.write(part)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}
