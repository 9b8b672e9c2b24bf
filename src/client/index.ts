// A small typed client for Relay's public API. It depends on nothing in the server, so the gateway
// (and anyone else) talks to the API only through what crosses the wire.
import { createTransport, type RelayClientOptions } from './http.ts';
import { dataSourcesClient, type DataSourcesClient } from './dataSources.ts';

export { RelayApiError, type RelayClientOptions } from './http.ts';
export type * from './types.ts';
export type { DataSourcesClient } from './dataSources.ts';

export interface RelayClient {
  dataSources: DataSourcesClient;
}

export function createRelayClient(opts: RelayClientOptions): RelayClient {
  const send = createTransport(opts);
  return { dataSources: dataSourcesClient(send) };
}
