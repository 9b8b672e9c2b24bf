// The HTTP server around the app: how long a client may take to send its request, and a port
// already taken named as the variable to change instead of a stack.
import http from 'node:http';
import type { Config } from '../config.ts';

export class ListenError extends Error {}

type Timeouts = Pick<Config, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_RECEIVE_TIMEOUT_MS'>;

/**
 * A request whose headers or body trickle in is answered 408 and closed at its bound, instead of
 * holding a connection for Node's default 300 s. Node checks the bounds on an interval, so the
 * interval is a fraction of the shorter one.
 */
export function createHttpServer(handler: http.RequestListener, config: Timeouts): http.Server {
  const checkEvery = Math.max(100, Math.min(5000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4)));
  return http.createServer(
    { headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS, requestTimeout: config.HTTP_RECEIVE_TIMEOUT_MS, connectionsCheckingInterval: checkEvery },
    handler,
  );
}

/** Listens; a port in use or not ours to take is a ListenError naming PORT and HOST. */
export function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new ListenError(`relay: port ${port} on ${host} is already in use; set PORT to a free port`));
      else if (err.code === 'EACCES') reject(new ListenError(`relay: not allowed to listen on port ${port}; set PORT to a port above 1023`));
      else if (err.code === 'EADDRNOTAVAIL') reject(new ListenError(`relay: ${host} is not an address of this machine; set HOST`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
