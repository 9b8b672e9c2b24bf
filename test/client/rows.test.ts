// The client's row calls against the real app on both versions: add, list and iterate in pages,
// get with content, update, delete, and the spec's partial-update and skip-unknown rules.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, useListeningApp } from '../helpers/harness.ts';
import { createTenant, type Tenant } from '../helpers/factories.ts';
import { RelayApiError, type RelayClient } from '../../src/client/index.ts';
import { clientFor, failure, type SentRequest } from './support.ts';

describe.each(['1.0', '2.0'] as const)('data source rows through the client on %s', (version) => {
  const rt = useTestRuntime({ worker: false });
  const app = useListeningApp(rt);
  let client: RelayClient;
  let sent: SentRequest[];
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
    ({ client, sent } = clientFor(app.baseUrl, tenant, version));
  });

  it('iterates 25 rows in pages of 10, passing each page’s last id as the next cursor', async () => {
    const { id } = await client.dataSources.create();
    const names = Array.from({ length: 25 }, (_, i) => `row-${String(i).padStart(2, '0')}.md`);
    await client.rows.add(id, names.map((name) => ({ name, content: `# ${name}\n\nBody of ${name}.` })));
    sent.length = 0;
    const rows = [];
    for await (const row of client.rows.iterate(id, { pageSize: 10 })) rows.push(row);
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(rows.every((r) => Object.keys(r).sort().join() === 'id,name')).toBe(true);
    expect(sent.map((r) => r.body)).toEqual([
      { dataSourceId: id, limit: 10 },
      { dataSourceId: id, limit: 10, cursor: rows[9]!.id },
      { dataSourceId: id, limit: 10, cursor: rows[19]!.id },
    ]);
    const last = await client.rows.list(id, { limit: 10, cursor: rows[19]!.id });
    expect(last.items).toHaveLength(5);
    expect(last.pagination).toEqual({ total: 25, last: rows[24]!.id });
  });

  it('gets a whole row, updates its name and content, and deletes it while skipping unknown ids', async () => {
    const { id } = await client.dataSources.create();
    await client.rows.add(id, [{ name: 'faq.md', content: '# FAQ\n\nOld answer.' }]);
    const [listed] = (await client.rows.list(id)).items;
    expect(await client.rows.get(id, listed!.id)).toEqual({
      id: listed!.id,
      name: 'faq.md',
      content: '# FAQ\n\nOld answer.',
      type: 'MANUAL',
      state: 'not_synced',
      lastSync: null,
      lastModified: expect.any(String),
      createdAt: expect.any(String),
    });
    await client.rows.update(id, [{ id: listed!.id, name: 'faq-v2.md', content: '# FAQ\n\nNew answer.' }]);
    expect(await client.rows.get(id, listed!.id)).toMatchObject({ name: 'faq-v2.md', content: '# FAQ\n\nNew answer.' });
    await client.rows.delete(id, [listed!.id, randomUUID()]);
    expect((await client.rows.list(id)).pagination).toEqual({ total: 0, last: null });
    expect(await failure(client.rows.get(id, listed!.id))).toMatchObject({ status: 404, code: 'data_source_row_not_found' });
  });

  it('fails an update naming a row of another data source with a typed error', async () => {
    const [a, b] = [await client.dataSources.create(), await client.dataSources.create()];
    await client.rows.add(b.id, [{ name: 'b.md', content: 'B' }]);
    const [foreign] = (await client.rows.list(b.id)).items;
    const err = await failure(client.rows.update(a.id, [{ id: foreign!.id, name: 'x', content: 'x' }]));
    expect(err).toBeInstanceOf(RelayApiError);
    expect(err.status).toBe(404);
    expect(err.code).toBe('data_source_row_not_found');
  });
});
