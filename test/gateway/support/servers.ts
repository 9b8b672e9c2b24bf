// Real servers standing in for the outside world: an SMTP server that keeps what it receives, and
// an HTTP sink that records requests and answers from a script.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((r) => server.close(() => r())) };
}

export interface SinkRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Sink {
  url: string;
  requests: SinkRequest[];
  /** Status codes to answer in order; the last one repeats. */
  statuses: number[];
  close(): Promise<void>;
}

export async function startSink(handler?: (req: SinkRequest) => { status: number; body?: unknown } | undefined): Promise<Sink> {
  const sink = { requests: [] as SinkRequest[], statuses: [200] } as Sink;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      sink.requests.push(record);
      const custom = handler?.(record);
      const status = custom?.status ?? (sink.statuses.length > 1 ? sink.statuses.shift()! : sink.statuses[0]!);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(custom?.body ?? { ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sink.close = () => new Promise((r) => server.close(() => r()));
  return sink;
}
