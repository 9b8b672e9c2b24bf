// The service as a process: roles, health, and a clean exit on SIGTERM.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { freePort, portAcceptsConnections } from '../../src/db/ferretdb.ts';
import { databaseUri, uniqueDatabaseName, waitFor } from '../helpers/harness.ts';
import { startServiceProcess } from '../helpers/process.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'relay-process-'));

describe('relay process', { timeout: 180_000 }, () => {
  const uri = databaseUri(uniqueDatabaseName());

  it('serves HTTP in the api role and exits 0 on SIGTERM', async () => {
    const svc = startServiceProcess({ MONGODB_URI: uri, ROLE: 'api' });
    const line = await svc.waitForLog((l) => typeof l.port === 'number');
    const res = await fetch(`http://127.0.0.1:${line.port}/healthz`);
    expect(await res.json()).toEqual({ success: true, status: 'ok' });
    expect(svc.logs.some((l) => l.msg === 'relay: worker processing jobs')).toBe(false);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  });

  it('processes jobs without listening in the worker role', async () => {
    const svc = startServiceProcess({ MONGODB_URI: uri, ROLE: 'worker' });
    await svc.waitForLog((l) => l.msg === 'relay: worker processing jobs');
    expect(svc.logs.some((l) => typeof l.port === 'number')).toBe(false);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  });

  it('exits 1 with a message naming the variable on bad configuration', async () => {
    const svc = startServiceProcess({ MONGODB_URI: uri, JOB_LOCK_LIFETIME_MS: '5000' });
    expect(await svc.exited).toBe(1);
  });

  it('keeps a generated admin token in DATA_DIR on the embedded default, never logs it, and reuses it on restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-admin-token-'));
    // Its own embedded database: one started for another data directory (the suite's) is refused.
    const env = { MONGODB_URI: '', ADMIN_TOKEN: '', DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(await freePort()), ROLE: 'api' };
    const first = startServiceProcess(env);
    const line = await first.waitForLog((l) => typeof l.port === 'number');
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect((fs.statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toString(8)).toBe('600');
    const teams = (auth?: string) => fetch(`http://127.0.0.1:${line.port}/api/admin/teams`, { headers: auth ? { authorization: `Bearer ${auth}` } : {} });
    expect((await teams(token)).status).toBe(200);
    expect((await teams('not-the-token-0123456789')).status).toBe(401);
    expect(JSON.stringify(first.logs)).not.toContain(token);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startServiceProcess(env);
    await second.waitForLog((l) => typeof l.port === 'number');
    expect(fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()).toBe(token);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 1 with one line naming PORT when the port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const svc = startServiceProcess({ MONGODB_URI: uri, ROLE: 'api', PORT: String(port) });
      expect(await svc.exited).toBe(1);
      expect(svc.stderr().trim()).toBe(`relay: port ${port} on 127.0.0.1 is already in use; set PORT to a free port`);
    } finally {
      taken.close();
    }
  });

  it("refuses to start on another data directory's embedded database, with one line naming EMBEDDED_DB_PORT", async () => {
    const [first, second] = [tempDataDir(), tempDataDir()];
    const dbPort = String(await freePort());
    const env = { MONGODB_URI: '', ADMIN_TOKEN: '', EMBEDDED_DB_PORT: dbPort, ROLE: 'api' };
    const one = startServiceProcess({ ...env, DATA_DIR: first });
    await one.waitForLog((l) => typeof l.port === 'number');
    const two = startServiceProcess({ ...env, DATA_DIR: second });
    expect(await two.exited).toBe(1);
    expect(two.stderr().trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^relay: EMBEDDED_DB_PORT ${dbPort} is in use by the embedded database of another data directory .*; set EMBEDDED_DB_PORT to a free port`))]);
    expect(two.logs.some((l) => typeof l.port === 'number')).toBe(false);
    one.child.kill('SIGTERM');
    expect(await one.exited).toBe(0);
    for (const dir of [first, second]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)('ends the server and its database when `npm start` is sent %s', async (signal) => {
    const dataDir = tempDataDir();
    const dbPort = await freePort();
    const npm = startServiceProcess({ MONGODB_URI: '', ADMIN_TOKEN: '', DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(dbPort), ROLE: 'api' }, ['npm', 'start', '--silent']);
    const line = await npm.waitForLog((l) => typeof l.port === 'number');
    const serverPid = line.pid as number;
    expect(serverPid).not.toBe(npm.child.pid);
    expect(await portAcceptsConnections(dbPort)).toBe(true);
    npm.child.kill(signal);
    await npm.exited;
    await waitFor(async () => !alive(serverPid) && !(await portAcceptsConnections(dbPort)) && !(await portAcceptsConnections(line.port as number)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
