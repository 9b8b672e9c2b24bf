// A small real HTTP server speaking the three data-source endpoints the gateway's client calls
// (spec "Endpoints › Data sources"): list (paged), get, sync. Used where the real API is not the
// point of the test (paging, the attempt cap, server errors).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface StubDataSource {
  id: string;
  state: 'not_synced' | 'syncing' | 'synced' | 'sync_error';
}

export interface PublicApiStub {
  baseUrl: string;
  channelId: string;
  secretKey: string;
  dataSources: StubDataSource[];
  syncCalls: string[];
  listCalls: Array<{ limit?: number; cursor?: string }>;
  /** Status to answer sync calls with instead of the normal behaviour (e.g. 503), once per entry. */
  syncFailures: number[];
  close(): Promise<void>;
}

export async function startPublicApiStub(count: number, states: (i: number) => StubDataSource['state']): Promise<PublicApiStub> {
  const stub = {
    channelId: randomUUID(),
    secretKey: 'sk_stub_secret',
    dataSources: Array.from({ length: count }, (_, i) => ({ id: randomUUID(), state: states(i) })),
    syncCalls: [],
    listCalls: [],
    syncFailures: [],
  } as unknown as PublicApiStub;
  const present = (d: StubDataSource) => ({ id: d.id, type: 'MANUAL', state: d.state, lastSync: null, syncInterval: null, createdAt: '2025-01-01T00:00:00.000Z' });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const url = new URL(req.url!, 'http://stub');
      const prefix = `/api/public/channels/${stub.channelId}/2.0`;
      if (!url.pathname.startsWith(prefix)) return send(404, { success: false, code: 'channel_not_found', message: 'Channel not found' });
      if (req.headers['x-api-secret-key'] !== stub.secretKey) return send(403, { success: false, code: 'forbidden', message: 'Forbidden' });
      const path = url.pathname.slice(prefix.length);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      if (req.method === 'POST' && path === '/data-sources/list') {
        stub.listCalls.push(body);
        const limit = body.limit ?? 10;
        const start = body.cursor ? stub.dataSources.findIndex((d) => d.id === body.cursor) + 1 : 0;
        const items = stub.dataSources.slice(start, start + limit);
        return send(200, { success: true, dataSources: items.map(present), pagination: { total: stub.dataSources.length, last: items.at(-1)?.id ?? null } });
      }
      const find = (id: unknown) => stub.dataSources.find((d) => d.id === id);
      if (req.method === 'GET' && path === '/data-sources') {
        const ds = find(url.searchParams.get('dataSourceId'));
        return ds ? send(200, { success: true, dataSource: present(ds) }) : send(404, { success: false, code: 'data_source_not_found', message: 'Data source not found' });
      }
      if (req.method === 'POST' && path === '/data-sources/sync') {
        stub.syncCalls.push(body.dataSourceId);
        const failure = stub.syncFailures.shift();
        if (failure) return send(failure, { success: false, code: 'internal_error', message: 'try later' });
        const ds = find(body.dataSourceId);
        if (!ds) return send(404, { success: false, code: 'data_source_not_found', message: 'Data source not found' });
        if (ds.state === 'syncing') return send(429, { success: false, code: 'already_syncing', message: 'Already syncing' });
        ds.state = 'syncing';
        return send(200, { success: true });
      }
      return send(404, { success: false, code: 'not_found', message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => new Promise((r) => server.close(() => r()));
  return stub;
}
