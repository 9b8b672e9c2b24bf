// A webhook receiver in a process of its own: answers 200 at once and counts requests, so its work
// is not counted as the sender's (a receiver is another service). Forked by a benchmark; answers
// { url } once listening, { received } to { count: true }, and exits on { close: true }.
import http from 'node:http';

let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(200).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook` });
});
process.on('message', (msg: { count?: boolean; close?: boolean }) => {
  if (msg.count) process.send!({ received });
  if (msg.close) {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
