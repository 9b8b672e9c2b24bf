// `relay public …` as a process against the real app on a loopback port: files become rows, a sync
// is followed to its end, questions are answered from those files (whole and streamed), and an API
// refusal is one clear line. The CLI only talks HTTP, so the test database is never handed to it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';

const run = promisify(execFile);

const FILES = {
  'returns.md': '# Returns\n\nZucchini blenders can be returned within 30 days of delivery.\n',
  'shipping.md': '# Shipping\n\nQuasar kettles ship from Lisbon within two working days.\n',
  'warranty.md': '# Warranty\n\nNebula toasters carry a warranty of seven years.\n',
};

// Several CLI processes a test: a bound for a machine under heavy load (one call can take 10 s there), not a speed check.
describe('relay public CLI', { timeout: 240_000 }, () => {
  const rt = useTestRuntime();
  let server: http.Server;
  let baseUrl: string;
  let tenant: Tenant;
  let dir: string;
  let dataSourceId: string;

  /** Credentials come from the environment unless a test passes the flags. */
  const relay = (...args: string[]) =>
    run('node', ['bin/relay.js', 'public', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', RELAY_URL: baseUrl, RELAY_CHANNEL_ID: tenant.channelId, RELAY_SECRET_KEY: tenant.secretKey },
    });

  beforeAll(async () => {
    server = http.createServer(rt.app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    tenant = await createTenant();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-public-cli-'));
    for (const [name, content] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), content);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not markdown, not uploaded');
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a data source, uploads a directory of .md files as rows and follows the sync to synced', async () => {
    dataSourceId = JSON.parse((await relay('create-data-source')).stdout).id;
    expect(JSON.parse((await relay('list-data-sources')).stdout)).toEqual([expect.objectContaining({ id: dataSourceId, state: 'not_synced' })]);

    const upload = await run('node', ['bin/relay.js', 'public', 'upload', dataSourceId, dir, '--url', baseUrl, '--channel', tenant.channelId, '--key', tenant.secretKey]);
    expect(JSON.parse(upload.stdout)).toEqual({ dataSourceId, uploaded: 3, requests: 1 });
    expect(upload.stderr).toBe('uploaded 3/3 rows\n');
    const rows = await publicApi(rt, tenant)('post', '/data-sources/row/list', { dataSourceId, limit: 100 }).expect(200);
    expect(rows.body.dataSourceRows.map((r: { name: string }) => r.name).sort()).toEqual(Object.keys(FILES));

    const sync = await relay('sync', dataSourceId, '--wait', '--poll', '50');
    expect(JSON.parse(sync.stdout)).toMatchObject({ id: dataSourceId, state: 'synced', lastSync: expect.any(String) });
    const lines = sync.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^sync (syncing|synced) \d+\.\d s$/);
    expect(lines.at(-1)).toMatch(/^sync synced /);
  });

  it('answers from a file, names the source row, and streams the same text', async () => {
    const question = 'Where do quasar kettles ship from?';
    const sentence = 'Quasar kettles ship from Lisbon within two working days.';
    const rowId = (await publicApi(rt, tenant)('post', '/data-sources/row/list', { dataSourceId, limit: 100 })).body.dataSourceRows.find(
      (r: { name: string }) => r.name === 'shipping.md',
    ).id;

    const json = JSON.parse((await relay('ask', question, '--json')).stdout);
    expect(json.response).toContain(sentence);
    expect(json.sources).toEqual([{ rowId, dataSourceId, name: 'shipping.md' }]);
    expect(json.conversationId).toEqual(expect.any(String));

    const plain = await relay('ask', question);
    expect(plain.stdout).toBe(`${json.response}\n`);
    expect(plain.stderr).toContain('sources: shipping.md');

    const streamed = await relay('ask', question, '--stream');
    expect(streamed.stdout).toBe(`${json.response}\n`);

    const continued = JSON.parse((await relay('ask', question, '--stream', '--json', '--conversation', json.conversationId)).stdout);
    expect(continued).toEqual({ conversationId: json.conversationId, response: json.response, sources: json.sources });
  });

  it('exits 1 with one line naming the status and code when the key is wrong', async () => {
    const failed = await relay('list-data-sources', '--key', 'sk_wrong').catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe('relay: 403 forbidden: The secret key does not match this channel\n');
  });
});
