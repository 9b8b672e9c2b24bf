// A small typed client for Relay's public API. It depends on nothing in the server, so the gateway,
// the CLI and the benchmarks talk to the API only through what crosses the wire.
import { createTransport, type RelayClientOptions } from './http.ts';
import { dataSourcesClient, type DataSourcesClient } from './dataSources.ts';
import { rowsClient, type RowsClient } from './rows.ts';
import { chatClient, type ChatClient } from './chat.ts';
import type { ApiVersion } from './types.ts';

export { RelayApiError, type RelayClientOptions } from './http.ts';
export type * from './types.ts';
export type { DataSourcesClient } from './dataSources.ts';
export type { RowsClient } from './rows.ts';
export type { ChatClient, StreamOptions } from './chat.ts';
export type { CompletionChunk, RelayStreamData, UiMessageChunk, UiMessageStream } from './streams.ts';

export interface RelayClient {
  /** The path version of every non-streamed call. */
  version: ApiVersion;
  dataSources: DataSourcesClient;
  rows: RowsClient;
  chat: ChatClient;
}

export function createRelayClient(opts: RelayClientOptions): RelayClient {
  const { version, send, openStream } = createTransport(opts);
  return { version, dataSources: dataSourcesClient(send), rows: rowsClient(send), chat: chatClient(send, openStream) };
}
