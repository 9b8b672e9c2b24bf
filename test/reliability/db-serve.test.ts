// Issue 39 "The embedded database for several processes": `relay db serve` runs the embedded
// FerretDB alone; an api and a worker process use it through MONGODB_URI, a process on its DATA_DIR
// without MONGODB_URI finds it, a Relay process killed with SIGKILL leaves it serving, and SIGTERM
// stops it cleanly with its data kept; the database dying on its own ends it with exit 1.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, portAcceptsConnections } from '../../src/db/ferretdb.ts';
import { startServiceProcess } from '../helpers/process.ts';
import { ADMIN_TOKEN, bootstrap, eventually, publicApi, relayCluster } from './support/cluster.ts';

/** `relay db serve` as users run it (the compiled CLI), on its own data directory and port. */
function serveDb(dataDir: string, port: number) {
  const child = spawn('node', ['bin/relay.js', 'db', 'serve', '--port', String(port)], {
    env: { ...process.env, DATA_DIR: dataDir, MONGODB_URI: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const printed = new Promise<{ uri: string; port: number; dataDir: string }>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    void exited.then((code) => reject(new Error(`relay db serve exited with ${code}`)));
  });
  return { child, exited, printed };
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

describe('relay db serve', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-db-serve-'));
  let served: ReturnType<typeof serveDb> | undefined;
  let cluster: ReturnType<typeof relayCluster> | undefined;

  afterAll(async () => {
    await cluster?.stopAll();
    if (served && alive(served.child)) served.child.kill('SIGKILL');
    await served?.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves an api and a worker process, outlives Relay processes killed with SIGKILL, and stops cleanly on SIGTERM', { timeout: 400_000 }, async () => {
    const port = await freePort();
    served = serveDb(dataDir, port);
    const printed = await served.printed;
    expect(printed).toEqual({ uri: `mongodb://127.0.0.1:${port}/relay`, port, dataDir: path.join(fs.realpathSync(dataDir), 'db') });

    // Both roles on it: the api stores the rows and starts a sync, the worker runs the sync.
    cluster = relayCluster({ MONGODB_URI: printed.uri });
    const [api, worker] = await Promise.all([cluster.start('api'), cluster.start('worker')]);
    const tenant = await bootstrap(api);
    const pub = publicApi(api, tenant);
    const ds = (await pub('POST', '/data-sources')).body.dataSource;
    expect((await pub('POST', '/data-sources/row', { dataSourceId: ds.id, dataSourceRows: [{ name: 'faq', content: '# FAQ\n\nOpening hours are 9 to 5.' }] })).status).toBe(200);
    expect((await pub('POST', '/data-sources/sync', { dataSourceId: ds.id })).status).toBe(200);
    await eventually(async () => (await pub('GET', `/data-sources?dataSourceId=${ds.id}`)).body.dataSource?.state === 'synced', 120_000);

    // Unlike the database `npm start` launches, this one does not end with a Relay process.
    await cluster.crash(worker);
    await cluster.crash(api);
    expect(await portAcceptsConnections(port)).toBe(true);
    expect(alive(served.child)).toBe(true);

    // A process on the same DATA_DIR without MONGODB_URI finds it, with what the others stored.
    const again = startServiceProcess({ MONGODB_URI: '', DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(port), ROLE: 'api', ADMIN_TOKEN });
    const line = await Promise.race([
      again.waitForLog((l) => typeof l.port === 'number', 180_000),
      again.exited.then((code) => Promise.reject(new Error(`exited with ${code}: ${again.stderr()}`))),
    ]);
    const pubAgain = publicApi({ url: `http://127.0.0.1:${line.port}` }, tenant);
    expect((await pubAgain('GET', `/data-sources?dataSourceId=${ds.id}`)).body.dataSource).toMatchObject({ id: ds.id, state: 'synced' });
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(await portAcceptsConnections(port)).toBe(true);

    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    expect(await portAcceptsConnections(port)).toBe(false);

    // Stopped cleanly: served again from the same folder, it has the data.
    served = serveDb(dataDir, port);
    const client = await MongoClient.connect((await served.printed).uri);
    try {
      expect(await client.db().collection<{ _id: string; state: string }>('datasources').findOne({ _id: ds.id })).toMatchObject({ state: 'synced' });
    } finally {
      await client.close();
    }

    // The database dying on its own is a failure a supervisor sees: exit 1, not 0.
    const ferret = execFileSync('pgrep', ['-f', `^/.*ferretdb-.*--listen-addr=127\\.0\\.0\\.1:${port}`], { encoding: 'utf8' }).trim().split('\n');
    expect(ferret).toHaveLength(1);
    process.kill(Number(ferret[0]), 'SIGKILL');
    expect(await served.exited).toBe(1);
  });
});
